#include "commands.h"

#include "bundleio.h"
#include "chartexporter.h"
#include <QCommandLineParser>
#include <QFileInfo>
#include <cstdio>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "versus export: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int runExportCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Re-renders the charts of a saved results bundle, without running anything.\n"
        "Writes <chart>.<format> for every chart plus results.csv and results.json.\n"
        "Exit codes: 0 written, 2 bad options, bad bundle or unwritable folder."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("BUNDLE"), QStringLiteral("Results bundle (JSON) to render."));
    const QCommandLineOption dirOption(QStringLiteral("export-dir"), QStringLiteral("Folder to write into (created if needed)."),
                                       QStringLiteral("DIR"));
    const QCommandLineOption presetOption(QStringLiteral("preset"),
                                          QStringLiteral("Size preset: blog (1200x675), social (1200x630), slide "
                                                         "(1920x1080), a4 (2480x1754, 300 dpi). Default blog."),
                                          QStringLiteral("NAME"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Custom size in pixels, e.g. 1600x900."),
                                        QStringLiteral("WxH"));
    const QCommandLineOption scaleOption(QStringLiteral("scale"), QStringLiteral("Pixel scale factor: 1, 2 or 3. Default 1."),
                                         QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Comma-separated: png, svg, pdf. Default png."),
                                          QStringLiteral("LIST"), QStringLiteral("png"));
    const QCommandLineOption themeOption(QStringLiteral("theme"), QStringLiteral("light, dark or transparent. Default light."),
                                         QStringLiteral("THEME"), QStringLiteral("light"));
    const QCommandLineOption titleOption(QStringLiteral("title"), QStringLiteral("Title (default: derived from the results)."),
                                         QStringLiteral("T"));
    const QCommandLineOption subtitleOption(QStringLiteral("subtitle"), QStringLiteral("Subtitle; empty for none."),
                                            QStringLiteral("S"));
    const QCommandLineOption footnoteOption(QStringLiteral("footnote"), QStringLiteral("Footnote; empty for none."),
                                            QStringLiteral("F"));
    const QCommandLineOption chartOption(QStringLiteral("chart"),
                                         QStringLiteral("Only this chart: memory-per-attribute, usec-per-command, "
                                                        "usec-per-event or throughput. Repeatable."),
                                         QStringLiteral("NAME"));
    parser.addOptions({dirOption, presetOption, sizeOption, scaleOption, formatOption, themeOption, titleOption,
                       subtitleOption, footnoteOption, chartOption});
    if (!parser.parse(arguments))
        return fail(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(QStringLiteral("give exactly one BUNDLE (see --help)"));
    if (!parser.isSet(dirOption))
        return fail(QStringLiteral("--export-dir DIR is required"));

    ExportOptions options;
    if (parser.isSet(presetOption) && parser.isSet(sizeOption))
        return fail(QStringLiteral("--preset and --size exclude each other"));
    if (parser.isSet(presetOption)) {
        const std::optional<SizePreset> preset = findSizePreset(parser.value(presetOption));
        if (!preset)
            return fail(QStringLiteral("unknown preset \"%1\" (use blog, social, slide or a4)").arg(parser.value(presetOption)));
        options.size = preset->size;
        options.dpi = preset->dpi;
    }
    if (parser.isSet(sizeOption)) {
        const Outcome<QSize> size = parseImageSize(parser.value(sizeOption));
        if (!size)
            return fail(size.error());
        options.size = size.value();
    }
    bool scaleOk = false;
    options.scale = parser.value(scaleOption).toDouble(&scaleOk);
    if (!scaleOk || options.scale < 1 || options.scale > 4)
        return fail(QStringLiteral("bad scale \"%1\" (use 1, 2 or 3)").arg(parser.value(scaleOption)));
    const Outcome<std::vector<ImageFormat>> formats = parseImageFormats(parser.value(formatOption));
    if (!formats)
        return fail(formats.error());
    options.formats = formats.value();
    const Outcome<ColorTheme> theme = parseColorTheme(parser.value(themeOption));
    if (!theme)
        return fail(theme.error());
    options.theme = theme.value();
    if (parser.isSet(titleOption))
        options.title = parser.value(titleOption);
    if (parser.isSet(subtitleOption))
        options.subtitle = parser.value(subtitleOption);
    if (parser.isSet(footnoteOption))
        options.footnote = parser.value(footnoteOption);
    std::vector<ChartKind> kinds;
    for (const QString &name : parser.values(chartOption)) {
        const Outcome<ChartKind> kind = parseChartKind(name);
        if (!kind)
            return fail(kind.error());
        kinds.push_back(kind.value());
    }
    if (kinds.empty())
        kinds = allChartKinds();

    const Outcome<ResultsBundle> bundle = loadBundle(positional.first());
    if (!bundle)
        return fail(bundle.error());
    const Outcome<QStringList> written = exportCharts(bundle.value(), kinds, parser.value(dirOption), options);
    if (!written)
        return fail(written.error());
    for (const QString &path : written.value())
        std::printf("%s\n", qPrintable(path));
    return 0;
}
