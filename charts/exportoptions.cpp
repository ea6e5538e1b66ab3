#include "exportoptions.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>

QSize ExportOptions::pixelSize() const
{
    return QSize(int(std::lround(size.width() * scale)), int(std::lround(size.height() * scale)));
}

const std::vector<SizePreset> &sizePresets()
{
    static const std::vector<SizePreset> presets = {
        {QStringLiteral("blog"), QSize(1200, 675), 96, QStringLiteral("blog posts, 16:9")},
        {QStringLiteral("social"), QSize(1200, 630), 96, QStringLiteral("social cards")},
        {QStringLiteral("slide"), QSize(1920, 1080), 96, QStringLiteral("full-HD slides"), true},
        {QStringLiteral("blog-tall"), QSize(1200, 1500), 96, QStringLiteral("a blog column, 4:5")},
        {QStringLiteral("social-tall"), QSize(1080, 1350), 96, QStringLiteral("portrait social posts, 4:5")},
        // 297 × 210 mm at 300 dpi; 2480×1754 would be A5.
        {QStringLiteral("a4"), QSize(3508, 2480), 300, QStringLiteral("print reports, A4 landscape at 300 dpi")},
        {QStringLiteral("a4-portrait"), QSize(2480, 3508), 300, QStringLiteral("print reports, A4 portrait at 300 dpi")},
    };
    return presets;
}

QString sizePresetList()
{
    QStringList items;
    for (const SizePreset &preset : sizePresets()) {
        QString item = QStringLiteral("%1 (%2x%3").arg(preset.name).arg(preset.size.width()).arg(preset.size.height());
        if (preset.dpi != 96)
            item += QStringLiteral(", %1 dpi").arg(preset.dpi);
        items << item + QLatin1Char(')');
    }
    return items.join(QStringLiteral(", "));
}

std::optional<SizePreset> findSizePreset(const QString &name)
{
    for (const SizePreset &preset : sizePresets()) {
        if (preset.name.compare(name, Qt::CaseInsensitive) == 0)
            return preset;
    }
    return std::nullopt;
}

bool meantForARoom(QSize size)
{
    const std::vector<SizePreset> &presets = sizePresets();
    return std::any_of(presets.begin(), presets.end(), [size](const SizePreset &preset) { return preset.room && preset.size == size; });
}

Outcome<QSize> parseImageSize(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX×](\\d{1,5})$"));
    const QRegularExpressionMatch match = pattern.match(text.trimmed());
    if (!match.hasMatch())
        return Error{QStringLiteral("bad size \"%1\": use WIDTHxHEIGHT in pixels, e.g. 1600x900").arg(text)};
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    if (size.width() < 320 || size.height() < 200 || size.width() > 10000 || size.height() > 10000)
        return Error{QStringLiteral("bad size \"%1\": width 320–10000 and height 200–10000 pixels").arg(text)};
    return size;
}

QString imageFormatExtension(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Png: return QStringLiteral("png");
    case ImageFormat::Svg: return QStringLiteral("svg");
    case ImageFormat::Pdf: return QStringLiteral("pdf");
    }
    return {};
}

Outcome<std::vector<ImageFormat>> parseImageFormats(const QString &text)
{
    std::vector<ImageFormat> formats;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = part.trimmed().toLower();
        bool known = false;
        for (ImageFormat format : {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf}) {
            if (name == imageFormatExtension(format)) {
                known = true;
                if (std::find(formats.begin(), formats.end(), format) == formats.end())
                    formats.push_back(format);
            }
        }
        if (!known)
            return Error{QStringLiteral("unknown format \"%1\" (use png, svg, pdf)").arg(part.trimmed())};
    }
    if (formats.empty())
        return Error{QStringLiteral("no format given (use png, svg, pdf)")};
    return formats;
}

Outcome<ChartKind> parseChartKind(const QString &name)
{
    if (const std::optional<ChartKind> kind = chartKindNamed(name))
        return *kind;
    return Error{QStringLiteral("unknown chart \"%1\" (use %2)").arg(name, chartStems().join(QStringLiteral(", ")))};
}
