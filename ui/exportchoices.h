#pragma once
// What the export dialog remembers between uses and launches (QSettings): the preset, the
// scale, the format and the theme picked in the dialog. The picked theme holds while the
// window's charts keep the theme they had when it was picked; when they change (light to
// dark), the export follows the window until the user picks again.

#include "charttheme.h"
#include "exportoptions.h"
#include <QString>
#include <optional>

struct ExportChoices {
    // The preset picked in the dialog; empty when none was: then each chart is drawn at blog,
    // or at blog-tall where its bars would be too thin for their figures (fittedOptions()).
    QString preset;
    double scale = 1;
    ImageFormat format = ImageFormat::Png;
    std::optional<ColorTheme> pickedTheme;          // chosen in the dialog
    ColorTheme pickedUnder = ColorTheme::Light;     // the window's chart theme at that moment

    // The theme an export starts with when the window's charts are `viewTheme`.
    ColorTheme themeFor(ColorTheme viewTheme) const;
};

ExportChoices loadExportChoices();
void saveExportChoices(const ExportChoices &choices);
