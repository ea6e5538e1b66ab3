#include "exportcommandline.h"

#include "chartexporter.h"

void addExportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("export-dir"), QStringLiteral("Folder to write the charts into (created if needed)."), QStringLiteral("DIR")},
        {QStringLiteral("preset"),
         QStringLiteral("Size preset: blog (1200x675), social (1200x630), slide (1920x1080), a4 (2480x1754, 300 dpi). "
                        "Default blog."),
         QStringLiteral("NAME")},
        {QStringLiteral("size"), QStringLiteral("Custom size in pixels, e.g. 1600x900."), QStringLiteral("WxH")},
        {QStringLiteral("scale"), QStringLiteral("Pixel scale factor: 1, 2 or 3. Default 1."), QStringLiteral("S"), QStringLiteral("1")},
        {QStringLiteral("format"), QStringLiteral("Comma-separated: png, svg, pdf. Default png."), QStringLiteral("LIST"),
         QStringLiteral("png")},
        {QStringLiteral("theme"), QStringLiteral("light, dark or transparent. Default light."), QStringLiteral("THEME"),
         QStringLiteral("light")},
        {QStringLiteral("title"), QStringLiteral("Title (default: derived from the results)."), QStringLiteral("T")},
        {QStringLiteral("subtitle"), QStringLiteral("Subtitle; empty for none."), QStringLiteral("S")},
        {QStringLiteral("footnote"), QStringLiteral("Footnote; empty for none."), QStringLiteral("F")},
        {QStringLiteral("chart"),
         QStringLiteral("Only this chart: memory-per-attribute, usec-per-command, usec-per-event or throughput. Repeatable."),
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
            return Error{QStringLiteral("--preset: unknown preset '%1' (use blog, social, slide or a4)")
                             .arg(parser.value(QStringLiteral("preset")))};
        options.size = preset->size;
        options.dpi = preset->dpi;
    }
    if (hasSize) {
        const Outcome<QSize> size = parseImageSize(parser.value(QStringLiteral("size")));
        if (!size)
            return Error{QStringLiteral("--size: %1").arg(size.error())};
        options.size = size.value();
    }
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

QStringList exportRequestFileNames(const ExportRequest &request)
{
    return exportFileNames(request.charts.empty() ? allChartKinds() : request.charts, request.options);
}

Outcome<QStringList> exportRequested(const ResultsBundle &bundle, const ExportRequest &request)
{
    if (request.charts.empty())
        return exportAll(bundle, request.directory, request.options);
    return exportCharts(bundle, request.charts, request.directory, request.options);
}
