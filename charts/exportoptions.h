#pragma once
// What an exported chart looks like: size, pixel scale, dpi, theme, formats and titles.

#include "charttheme.h"
#include "figureviews.h"
#include "outcome.h"
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

enum class ImageFormat { Png, Svg, Pdf };

struct ExportOptions {
    QSize size = QSize(1200, 675);   // layout size in px: fonts, bars and margins follow it
    double scale = 1.0;              // pixel multiplier (1, 2, 3): the image is size × scale
    double dpi = 96;                 // at scale 1; PNG files carry dpi × scale
    ColorTheme theme = ColorTheme::Light;
    std::vector<ImageFormat> formats = {ImageFormat::Png};   // for exportAll
    // Unset: derived from the results. An empty string: no such line.
    std::optional<QString> title;
    std::optional<QString> subtitle;
    std::optional<QString> footnote;
    // Which categories are drawn, of those the figures have (their order, hidden versions and
    // commands shown are the Figures' own options).
    QStringList onlyCategories;                      // see ChartDataOptions
    int topCategories = 0;
    bool report = false;             // exportAll also writes report.md (reportexport.h)
    // The size was not chosen (the CLI without --preset or --size): a chart whose bars would be
    // too thin for their figures at `size` is drawn at the blog-tall size, where they fit.
    bool tallerWhenCrowded = false;

    QSize pixelSize() const;
};

struct SizePreset {
    QString name;
    QSize size;
    double dpi;
    QString use;
    // Seen across a room (slides): figures are drawn as large as the category names, and a
    // chart shows fewer categories where its bars are too thin for that.
    bool room = false;
};

// blog 1200×675, social 1200×630, slide 1920×1080, the tall 4:5 ones, A4 landscape and portrait.
const std::vector<SizePreset> &sizePresets();
std::optional<SizePreset> findSizePreset(const QString &name);
// A layout size of a preset meant for a room (slide's 1920×1080, whether picked or typed).
bool meantForARoom(QSize size);
// "blog (1200x675), …, a4 (3508x2480, 300 dpi)", for help texts and messages.
QString sizePresetList();
Outcome<QSize> parseImageSize(const QString &text);           // "1600x900"
Outcome<std::vector<ImageFormat>> parseImageFormats(const QString &text);   // "png,svg,pdf"
QString imageFormatExtension(ImageFormat format);              // "png"
Outcome<ChartKind> parseChartKind(const QString &name);        // a view's stem (figureviews.h)
