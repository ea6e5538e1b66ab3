#pragma once
// Colours and fonts of a chart. Font sizes derive from the height the chart is laid out
// at, so a 1200×675 image reads on a phone and a 2480×1754 one reads in print. Text uses
// the bundled DejaVu Sans, so the output is the same on every machine.

#include "outcome.h"
#include <QColor>
#include <QFont>
#include <QSizeF>
#include <QString>
#include <vector>

// Transparent: no background, text for light pages. TransparentDark: no background, light
// text and axes for dark slides.
enum class ColorTheme { Light, Dark, Transparent, TransparentDark };

struct ChartColors {
    QColor background;      // fully transparent for the transparent themes
    QColor text;
    QColor mutedText;       // subtitle, footnote, "unsupported"
    QColor grid;
    QColor axisLine;
    QColor errorBar;
    QColor better;          // a change label that is good news (as the table colours it)
    QColor worse;
};

ChartColors chartColors(ColorTheme theme);
// Every theme, in the order the dialog and the help list them.
const std::vector<ColorTheme> &allColorThemes();
// Light text on a dark ground (Dark, TransparentDark).
bool isDarkTheme(ColorTheme theme);
QString colorThemeName(ColorTheme theme);   // "light", "dark", "transparent", "transparent-dark"
QString colorThemeList();                   // "light, dark, transparent or transparent-dark"
Outcome<ColorTheme> parseColorTheme(const QString &name);

// Registers the bundled fonts once and returns their family name.
QString chartFontFamily();
QFont chartFont(double pixelSize, bool bold = false);

struct ChartFontSizes {
    double title = 0;
    double subtitle = 0;
    double axis = 0;        // category names and tick labels
    double axisTitle = 0;
    double legend = 0;
    double label = 0;       // bar labels, at most; they shrink to fit thin bars
    double footnote = 0;
    double margin = 0;      // outer margin in px
};
// For a layout of this size: text follows the height, but never outgrows a 16:9 frame of
// the same width, so tall formats (A4) keep their titles on one line.
ChartFontSizes chartFontSizes(QSizeF layoutSize);
