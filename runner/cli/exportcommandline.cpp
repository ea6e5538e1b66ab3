#include "exportcommandline.h"

#include "chartdata.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "sweepexport.h"
#include "terminalwrite.h"

#include <algorithm>
#include <cstdio>

namespace {

// Every view's stem, "…, throughput or cluster-overhead (a version run in both topologies)".
QString chartChoices()
{
    QStringList choices;
    for (const FigureView &view : figureViews())
        choices << (view.whenAbsent.isEmpty() ? view.stem : QStringLiteral("%1 (%2)").arg(view.stem, view.presenceText));
    const QString last = choices.takeLast();
    return choices.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

} // namespace

void addExportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("export-dir"),
         QStringLiteral("Folder to write the charts into (created if needed). Files of the same names already there are "
                        "replaced only with --force; a symbolic link or device of such a name is never replaced."),
         QStringLiteral("DIR")},
        {QStringLiteral("force"), QStringLiteral("Replace the files --export-dir already holds under the names it writes.")},
        {QStringLiteral("preset"),
         QStringLiteral("Size preset: %1. Default blog, or blog-tall for a chart whose bars would be too thin for their "
                        "figures at 1200x675 (said on stderr); a chosen preset or --size is kept as it is.").arg(sizePresetList()),
         QStringLiteral("NAME")},
        {QStringLiteral("size"), QStringLiteral("Custom size in pixels, e.g. 1600x900."), QStringLiteral("WxH")},
        {QStringLiteral("scale"), QStringLiteral("Pixel scale factor: 1, 2 or 3. Default 1."), QStringLiteral("S"), QStringLiteral("1")},
        {QStringLiteral("format"), QStringLiteral("Comma-separated: png, svg, pdf. Default png."), QStringLiteral("LIST"),
         QStringLiteral("png")},
        {QStringLiteral("theme"),
         QStringLiteral("%1 (transparent-dark: no background, light text for dark slides). Default light.")
             .arg(colorThemeList()),
         QStringLiteral("THEME"),
         QStringLiteral("light")},
        {QStringLiteral("title"), QStringLiteral("Title (default: derived from the results)."), QStringLiteral("T")},
        {QStringLiteral("subtitle"), QStringLiteral("Subtitle; empty for none."), QStringLiteral("S")},
        {QStringLiteral("footnote"), QStringLiteral("Footnote; empty for none."), QStringLiteral("F")},
        {QStringLiteral("sort"),
         QStringLiteral("Order of the categories in the charts, the tables and results.csv: workload (default), "
                        "largest (baseline value), change (largest change first) or name."),
         QStringLiteral("ORDER"), QStringLiteral("workload")},
        {QStringLiteral("categories"),
         QStringLiteral("Comma-separated: only these categories (types or commands, e.g. counter,approx_distinct); "
                        "the total stays."),
         QStringLiteral("LIST")},
        {QStringLiteral("top"), QStringLiteral("Only the first N categories in the --sort order; the total stays."),
         QStringLiteral("N")},
        {QStringLiteral("report"),
         QStringLiteral("Also write report.md: the headline changes, each chart with its tables and ratios against the "
                        "baseline, and how the figures were made, ready to paste into a post.")},
        {QStringLiteral("chart"),
         QStringLiteral("Only this chart: %1. Repeatable. "
                        "Without it a sweep's bundle also gets sweep-memory-per-key and sweep-ratio.")
             .arg(chartChoices()),
         QStringLiteral("NAME")},
    });
}

Outcome<ExportRequest> exportRequestFromParser(const QCommandLineParser &parser)
{
    ExportRequest request;
    request.directory = parser.value(QStringLiteral("export-dir"));
    ExportOptions &options = request.options;
    const bool hasPreset = parser.isSet(QStringLiteral("preset"));
    const bool hasSize = parser.isSet(QStringLiteral("size"));
    if (hasPreset && hasSize)
        return Error{QStringLiteral("--preset and --size exclude each other")};
    if (hasPreset) {
        const std::optional<SizePreset> preset = findSizePreset(parser.value(QStringLiteral("preset")));
        if (!preset)
            return Error{QStringLiteral("--preset: unknown preset '%1' (use %2)")
                             .arg(parser.value(QStringLiteral("preset")), sizePresetList())};
        options.size = preset->size;
        options.dpi = preset->dpi;
        request.sizeOption = QStringLiteral("--preset ") + preset->name;
    }
    if (hasSize) {
        const Outcome<QSize> size = parseImageSize(parser.value(QStringLiteral("size")));
        if (!size)
            return Error{QStringLiteral("--size: %1").arg(size.error())};
        options.size = size.value();
        request.sizeOption = QStringLiteral("--size ") + parser.value(QStringLiteral("size"));
    }
    // Without a size chosen, the default is what a writer can publish: each bar with its figure.
    options.tallerWhenCrowded = !hasPreset && !hasSize;
    const QString scale = parser.value(QStringLiteral("scale")).trimmed();
    if (scale != QLatin1String("1") && scale != QLatin1String("2") && scale != QLatin1String("3"))
        return Error{QStringLiteral("--scale: expected 1, 2 or 3, got '%1'").arg(parser.value(QStringLiteral("scale")))};
    options.scale = scale.toDouble();
    const Outcome<std::vector<ImageFormat>> formats = parseImageFormats(parser.value(QStringLiteral("format")));
    if (!formats)
        return Error{QStringLiteral("--format: %1").arg(formats.error())};
    options.formats = formats.value();
    const Outcome<ColorTheme> theme = parseColorTheme(parser.value(QStringLiteral("theme")));
    if (!theme)
        return Error{QStringLiteral("--theme: %1").arg(theme.error())};
    options.theme = theme.value();
    if (parser.isSet(QStringLiteral("title")))
        options.title = parser.value(QStringLiteral("title"));
    if (parser.isSet(QStringLiteral("subtitle")))
        options.subtitle = parser.value(QStringLiteral("subtitle"));
    if (parser.isSet(QStringLiteral("footnote")))
        options.footnote = parser.value(QStringLiteral("footnote"));
    const std::optional<CategoryOrder> order = categoryOrderNamed(parser.value(QStringLiteral("sort")));
    if (!order)
        return Error{QStringLiteral("--sort: unknown order '%1' (use workload, largest, change or name)")
                         .arg(parser.value(QStringLiteral("sort")))};
    request.shown.order = *order;
    if (parser.isSet(QStringLiteral("top"))) {
        bool topOk = false;
        options.topCategories = parser.value(QStringLiteral("top")).toInt(&topOk);
        if (!topOk || options.topCategories < 1)
            return Error{QStringLiteral("--top: expected a whole number of at least 1, got '%1'")
                             .arg(parser.value(QStringLiteral("top")))};
    }
    options.report = parser.isSet(QStringLiteral("report"));
    for (const QString &name : parser.value(QStringLiteral("categories")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        options.onlyCategories << name.trimmed();
    if (const Status renderable = checkExportOptions(options); !renderable)
        return Error{QStringLiteral("%1 at --scale %2: %3")
                         .arg(hasSize ? QStringLiteral("--size ") + parser.value(QStringLiteral("size"))
                                      : QStringLiteral("the image size"),
                              scale, renderable.error())};
    for (const QString &name : parser.values(QStringLiteral("chart"))) {
        const Outcome<ChartKind> kind = parseChartKind(name);
        if (!kind)
            return Error{QStringLiteral("--chart: %1").arg(kind.error())};
        request.charts.push_back(kind.value());
    }
    return request;
}

QStringList exportRequestFileNames(const ExportRequest &request, const std::vector<ChartKind> &bundleKinds,
                                   const std::vector<SweepChartKind> &sweepKinds)
{
    QStringList names = exportFileNames(request.charts.empty() ? bundleKinds : request.charts, request.options);
    if (request.charts.empty())
        names << sweepExportFileNames(sweepKinds, request.options);
    return names;
}

Outcome<QStringList> exportRequested(const Figures &figures, const ExportRequest &request)
{
    const std::vector<ChartKind> kinds = request.charts.empty() ? chartKindsOf(figures) : request.charts;
    if (Status known = checkCategoryNames(figures, kinds, request.options.onlyCategories); !known)
        return Error{QStringLiteral("--categories: %1").arg(known.error())};
    // Said, never silent: an unreadable chart is still written, with the reason and the way out;
    // a chart drawn taller than the default so that its figures fit says so too.
    for (const ChartKind kind : kinds) {
        const ExportOptions fitted = fittedOptions(figures, kind, request.options);
        if (fitted.size != request.options.size)
            std::fprintf(stderr, "versus: %s drawn at %dx%d (blog-tall): at %dx%d its bars would be too thin for their figures; "
                                 "--preset blog keeps 16:9 without them\n",
                         qPrintable(figureView(kind).stem), fitted.size.width(), fitted.size.height(),
                         request.options.size.width(), request.options.size.height());
        for (const QString &problem : legibilityProblems(figures, kind, fitted))
            writeTerminal(stderr, QStringLiteral("versus: warning: %1 (%2)\n").arg(problem,
                         (problem.contains(QLatin1String("bar labels left out"))
                                        ? QStringLiteral("--top N, --categories, --preset blog-tall")
                                        // The option at fault; the size the names fit from is in the problem.
                                        : QStringLiteral("%1 cuts them; or --preset blog or slide")
                                              .arg(request.sizeOption.isEmpty() || fitted.size != request.options.size
                                                       ? QStringLiteral("the default size")
                                                       : request.sizeOption))));
    }
    if (request.charts.empty())
        return exportAll(figures, request.directory, request.options);
    return exportCharts(figures, request.charts, request.directory, request.options);
}
