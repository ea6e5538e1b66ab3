#include "exportchoices.h"

#include <QSettings>

ColorTheme ExportChoices::themeFor(ColorTheme viewTheme) const
{
    if (pickedTheme && pickedUnder == viewTheme)
        return *pickedTheme;
    return isDarkTheme(viewTheme) ? ColorTheme::Dark : ColorTheme::Light;
}

ExportChoices loadExportChoices()
{
    QSettings settings;
    ExportChoices choices;
    // Versions before "export/picked-preset" wrote "blog" to "export/preset" whether or not it
    // was picked: only another preset there is known to be a pick.
    const QString older = settings.value(QStringLiteral("export/preset")).toString();
    choices.preset = settings.value(QStringLiteral("export/picked-preset"), older == QLatin1String("blog") ? QString() : older).toString();
    const double scale = settings.value(QStringLiteral("export/scale"), 1.0).toDouble();
    choices.scale = scale == 2 || scale == 3 ? scale : 1.0;
    // Names, not enum numbers, so settings written by another version still read right.
    if (const Outcome<std::vector<ImageFormat>> format = parseImageFormats(settings.value(QStringLiteral("export/format")).toString()))
        choices.format = format->front();
    if (const Outcome<ColorTheme> picked = parseColorTheme(settings.value(QStringLiteral("export/theme")).toString())) {
        choices.pickedTheme = picked.value();
        const Outcome<ColorTheme> under = parseColorTheme(settings.value(QStringLiteral("export/theme-under")).toString());
        choices.pickedUnder = under ? under.value() : ColorTheme::Light;
    }
    return choices;
}

void saveExportChoices(const ExportChoices &choices)
{
    QSettings settings;
    settings.remove(QStringLiteral("export/preset"));
    if (choices.preset.isEmpty())
        settings.remove(QStringLiteral("export/picked-preset"));
    else
        settings.setValue(QStringLiteral("export/picked-preset"), choices.preset);
    settings.setValue(QStringLiteral("export/scale"), choices.scale);
    settings.setValue(QStringLiteral("export/format"), imageFormatExtension(choices.format));
    if (choices.pickedTheme) {
        settings.setValue(QStringLiteral("export/theme"), colorThemeName(*choices.pickedTheme));
        settings.setValue(QStringLiteral("export/theme-under"), colorThemeName(choices.pickedUnder));
    } else {
        settings.remove(QStringLiteral("export/theme"));
        settings.remove(QStringLiteral("export/theme-under"));
    }
}
