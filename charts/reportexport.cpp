#include "reportexport.h"

#include "atomicfile.h"
#include "chartdata.h"
#include "figureviews.h"
#include "figures.h"
#include "reportmarkdown.h"

#include <QDir>
#include <QFileInfo>

QString reportFileName()
{
    return QStringLiteral("report.md");
}

Outcome<QString> writeReport(const Figures &figures, const QString &dir, const QStringList &written)
{
    QStringList names;
    for (const QString &path : written)
        names << QFileInfo(path).fileName();
    // Each view's image under its stem (the memory Why's too: report.md shows it after the memory
    // chart): the PNG written, else the SVG.
    std::map<QString, QString> images;
    for (const ChartKind kind : chartKindsOf(figures)) {
        for (const char *extension : {"png", "svg"}) {
            const QString name = figureView(kind).stem + QLatin1Char('.') + QLatin1String(extension);
            if (names.contains(name) && !images.count(figureView(kind).stem))
                images[figureView(kind).stem] = name;
        }
    }
    const QString path = QDir(dir).filePath(reportFileName());
    const QByteArray report = reportMarkdown(figures, images, figures.options().order).toUtf8();
    if (Status status = writeFileAtomically(path, report, PathOrigin::NamedByVersus); !status)
        return Error{status.error()};
    return path;
}
