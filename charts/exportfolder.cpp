#include "exportfolder.h"

#include "atomicfile.h"
#include "bundlecsv.h"
#include "bundlejson.h"
#include "chartexporter.h"
#include "reportexport.h"
#include "sweepexport.h"
#include <QDir>
#include <QFileInfo>
#include <functional>

namespace {

// One image of the folder: its name, and the chart's own export that writes it there.
struct FolderImage {
    QString name;
    std::function<Status(const QString &path)> write;
};

// `images` into `dir`, in order; the folder exists already.
Outcome<QStringList> writeImages(const QString &dir, const std::vector<FolderImage> &images)
{
    QStringList written;
    for (const FolderImage &image : images) {
        const QString path = QDir(dir).filePath(image.name);
        if (const Status status = image.write(path); !status)
            return Error{status.error()};
        written << path;
    }
    return written;
}

// `images` into `dir`, created if needed; no folder when there are none.
Outcome<QStringList> writeImagesInto(const QString &dir, const std::vector<FolderImage> &images)
{
    if (images.empty())
        return QStringList();
    if (!QDir().mkpath(dir))
        return Error{QStringLiteral("%1: cannot create the export folder").arg(dir)};
    return writeImages(dir, images);
}

std::vector<FolderImage> chartImages(const Figures &figures, const std::vector<ChartKind> &kinds, const ExportOptions &options)
{
    std::vector<FolderImage> images;
    for (ChartKind kind : kinds) {
        // Fitted once for every format of the chart (the flag is cleared in what comes back).
        const ExportOptions fitted = fittedOptions(figures, kind, options);
        for (ImageFormat format : options.formats)
            images.push_back({chartFileName(kind, format), [&figures, kind, fitted](const QString &path) {
                                  return exportChart(figures, kind, fitted, path, PathOrigin::NamedByVersus);
                              }});
    }
    return images;
}

std::vector<FolderImage> sweepImages(const Figures &figures, const ExportOptions &options)
{
    std::vector<FolderImage> images;
    for (SweepChartKind kind : sweepChartKinds(figures.bundle())) {
        for (ImageFormat format : options.formats)
            images.push_back({sweepChartFileStem(kind) + QLatin1Char('.') + imageFormatExtension(format),
                              [&figures, kind, &options](const QString &path) {
                                  return exportSweepChart(figures, kind, options, path, PathOrigin::NamedByVersus);
                              }});
    }
    return images;
}

// results.csv and results.json of what is shown, then report.md, which links `images` (the
// images written before it), when options.report asks for it. Returns the paths written.
Outcome<QStringList> writeDataFiles(const Figures &figures, const QString &dir, const ExportOptions &options,
                                    const QStringList &images)
{
    const QDir folder(dir);
    QStringList written;
    const QString csv = folder.filePath(QStringLiteral("results.csv"));
    if (const Status status = writeFileAtomically(csv, bundleToCsv(figures, figures.options().order).toUtf8(),
                                                  PathOrigin::NamedByVersus);
        !status)
        return Error{status.error()};
    written << csv;
    const QString json = folder.filePath(QStringLiteral("results.json"));
    if (const Status status = writeFileAtomically(json, bundleToJson(shownResults(figures), figures), PathOrigin::NamedByVersus);
        !status)
        return Error{status.error()};
    written << json;
    if (options.report) {
        const Outcome<QString> report = writeReport(figures, dir, images + written);
        if (!report)
            return Error{report.error()};
        written << report.value();
    }
    return written;
}

// The charts in the table's order (the memory Why among them, by its own export), then the data
// files and report.md, which links the images written before it.
Outcome<QStringList> writeCharts(const Figures &figures, const std::vector<ChartKind> &kinds, const QString &dir,
                                 const ExportOptions &options)
{
    if (Status names = checkFolderNames(dir, exportFileNames(kinds, options)); !names)
        return Error{names.error()};
    if (!QDir().mkpath(dir))
        return Error{QStringLiteral("%1: cannot create the export folder").arg(dir)};
    const Outcome<QStringList> written = writeImages(dir, chartImages(figures, kinds, options));
    if (!written)
        return written;
    const Outcome<QStringList> data = writeDataFiles(figures, dir, options, written.value());
    if (!data)
        return data;
    return written.value() + data.value();
}

} // namespace

Outcome<QStringList> exportCharts(const Figures &figures, const std::vector<ChartKind> &kinds, const QString &dir,
                                  const ExportOptions &options)
{
    return writeCharts(figures, kinds, dir, options);
}

Outcome<QStringList> exportAll(const Figures &figures, const QString &dir, const ExportOptions &options)
{
    const ResultsBundle &bundle = figures.bundle();
    // Every name checked before the first is written: a refusal leaves the folder as it was.
    if (Status names = checkFolderNames(dir, sweepExportFileNames(sweepChartKinds(bundle), options)); !names)
        return Error{names.error()};
    Outcome<QStringList> written = writeCharts(figures, chartKindsOf(figures), dir, options);
    if (!written || !bundle.isSweep())
        return written;
    // A sweep's own charts: every point's figures against the swept parameter, its versions hidden.
    const Outcome<QStringList> sweep = exportSweepCharts(figures, dir, options);
    if (!sweep)
        return Error{sweep.error()};
    return written.value() + sweep.value();
}

QStringList exportFileNames(const std::vector<ChartKind> &kinds, const ExportOptions &options)
{
    QStringList names;
    for (ChartKind kind : kinds) {
        for (ImageFormat format : options.formats)
            names << chartFileName(kind, format);
    }
    names << QStringLiteral("results.csv") << QStringLiteral("results.json");
    if (options.report)
        names << reportFileName();
    return names;
}

QStringList sweepExportFileNames(const std::vector<SweepChartKind> &kinds, const ExportOptions &options)
{
    QStringList names;
    for (SweepChartKind kind : kinds)
        for (ImageFormat format : options.formats)
            names << sweepChartFileStem(kind) + QLatin1Char('.') + imageFormatExtension(format);
    return names;
}

Outcome<QStringList> exportSweepCharts(const Figures &figures, const QString &dir, const ExportOptions &options)
{
    return writeImagesInto(dir, sweepImages(figures, options));
}

QStringList existingFiles(const QString &dir, const QStringList &names)
{
    const QDir folder(dir);
    QStringList existing;
    for (const QString &name : names) {
        const QString path = folder.filePath(name);
        if (QFileInfo::exists(path))
            existing << path;
    }
    return existing;
}

Status checkFolderNames(const QString &dir, const QStringList &names)
{
    for (const QString &name : names) {
        if (Status replaceable = checkReplaceableByVersus(QDir(dir).filePath(name)); !replaceable)
            return replaceable;
    }
    return Status::success();
}
