#include "charttheme.h"

#include <QFontDatabase>
#include <QStringList>
#include <algorithm>

static void initFontResources()
{
    // The fonts live in the static charts library; make sure the linker keeps them.
    Q_INIT_RESOURCE(fonts);
}

ChartColors chartColors(ColorTheme theme)
{
    ChartColors colors;
    if (isDarkTheme(theme)) {
        colors.background = theme == ColorTheme::Dark ? QColor(0x1c, 0x1f, 0x24) : QColor(0, 0, 0, 0);
        colors.text = QColor(0xec, 0xee, 0xf1);
        colors.mutedText = QColor(0xa8, 0xae, 0xb6);
        colors.grid = QColor(0x3a, 0x3f, 0x47);
        colors.axisLine = QColor(0x80, 0x86, 0x8e);
        colors.errorBar = QColor(0xec, 0xee, 0xf1);
        colors.better = QColor(0x81, 0xc7, 0x84);
        colors.worse = QColor(0xef, 0x9a, 0x9a);
        return colors;
    }
    colors.background = theme == ColorTheme::Light ? QColor(0xff, 0xff, 0xff) : QColor(0, 0, 0, 0);
    colors.text = QColor(0x1f, 0x23, 0x28);
    colors.mutedText = QColor(0x5a, 0x60, 0x68);
    colors.grid = QColor(0xdd, 0xe1, 0xe6);
    colors.axisLine = QColor(0x8a, 0x90, 0x98);
    colors.errorBar = QColor(0x1f, 0x23, 0x28);
    colors.better = QColor(0x2e, 0x7d, 0x32);
    colors.worse = QColor(0xc6, 0x28, 0x28);
    return colors;
}

const std::vector<ColorTheme> &allColorThemes()
{
    static const std::vector<ColorTheme> themes = {ColorTheme::Light, ColorTheme::Dark, ColorTheme::Transparent,
                                                   ColorTheme::TransparentDark};
    return themes;
}

bool isDarkTheme(ColorTheme theme)
{
    return theme == ColorTheme::Dark || theme == ColorTheme::TransparentDark;
}

QString colorThemeName(ColorTheme theme)
{
    switch (theme) {
    case ColorTheme::Light: return QStringLiteral("light");
    case ColorTheme::Dark: return QStringLiteral("dark");
    case ColorTheme::Transparent: return QStringLiteral("transparent");
    case ColorTheme::TransparentDark: return QStringLiteral("transparent-dark");
    }
    return {};
}

QString colorThemeList()
{
    QStringList names;
    for (ColorTheme theme : allColorThemes())
        names << colorThemeName(theme);
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

Outcome<ColorTheme> parseColorTheme(const QString &name)
{
    for (ColorTheme theme : allColorThemes()) {
        if (name.trimmed().compare(colorThemeName(theme), Qt::CaseInsensitive) == 0)
            return theme;
    }
    return Error{QStringLiteral("unknown theme \"%1\" (use %2)").arg(name, colorThemeList())};
}

QString chartFontFamily()
{
    static const QString family = [] {
        initFontResources();
        QString name;
        for (const char *file : {":/fonts/DejaVuSans.ttf", ":/fonts/DejaVuSans-Bold.ttf"}) {
            const int id = QFontDatabase::addApplicationFont(QString::fromLatin1(file));
            if (id >= 0 && name.isEmpty())
                name = QFontDatabase::applicationFontFamilies(id).value(0);
        }
        return name.isEmpty() ? QStringLiteral("DejaVu Sans") : name;
    }();
    return family;
}

QFont chartFont(double pixelSize, bool bold)
{
    QFont font(chartFontFamily());
    font.setPixelSize(std::max(1, int(pixelSize + 0.5)));
    font.setBold(bold);
    font.setHintingPreference(QFont::PreferNoHinting);
    font.setKerning(true);
    return font;
}

ChartFontSizes chartFontSizes(QSizeF layoutSize)
{
    // Proportions tuned on the 1200×675 blog preset; small windows keep readable minimums.
    const double reference = layoutSize.width() > 0 ? std::min(layoutSize.height(), layoutSize.width() * 9.0 / 16.0)
                                                    : layoutSize.height();
    const double h = std::max(reference, 300.0);
    ChartFontSizes sizes;
    sizes.title = std::max(16.0, h * 0.043);
    sizes.subtitle = std::max(12.0, h * 0.027);
    sizes.axis = std::max(11.0, h * 0.025);
    sizes.axisTitle = std::max(11.0, h * 0.024);
    sizes.legend = std::max(11.0, h * 0.026);
    sizes.label = std::max(10.0, h * 0.024);
    sizes.footnote = std::max(10.0, h * 0.021);
    sizes.margin = std::max(8.0, h * 0.036);
    return sizes;
}
