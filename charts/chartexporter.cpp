#include "chartexporter.h"

#include "chartfile.h"
#include "chartpage.h"
#include "barchart.h"
#include "whyexport.h"
#include <QBarCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace {

// A chart with its title, subtitle and footnote, laid out at the options' base size.
class ComposedChart {
public:
    ComposedChart(const Figures &figures, ChartKind kind, const ExportOptions &options)
        : m_size(options.size), m_theme(options.theme), m_page(options.size, options.theme)
    {
        m_title = options.title.value_or(defaultChartTitle(figures, kind));
        m_subtitle = options.subtitle.value_or(defaultChartSubtitle(figures, kind));
        m_footnote = options.footnote.value_or(defaultChartFootnote(figures));
        ChartDataOptions dataOptions;
        dataOptions.onlyCategories = options.onlyCategories;
        dataOptions.topCategories = options.topCategories;
        if (meantForARoom(options.size))
            m_roomFonts = roomFontSizes(options.size);
        composeData(figures, kind, dataOptions);
        if (m_roomFonts)
            keepCategoriesWithFigures(figures, kind, dataOptions);
        // Bars too thin for their figures are drawn without them: the image says so itself, not
        // only a warning a reader of the published picture never sees.
        if (!m_chart->barLabelsShown()) {
            const size_t bars = m_data.series.size() * size_t(m_data.categories.size());
            compose(QStringList{QStringLiteral("Figures not written on the bars: %1 bars are too thin for them at %2×%3.")
                                    .arg(bars).arg(m_size.width()).arg(m_size.height())}
                    + m_notes);
        }
    }

    // Renders into `painter` filling `target` (device coordinates).
    void render(QPainter *painter, const QRectF &target) { m_page.render(painter, target); }
    ChartPage &page() { return m_page; }

    ChartGeometry geometry(double scale) const
    {
        ChartGeometry geometry;
        const QTransform toImage = QTransform::fromScale(scale, scale);
        const QPointF offset = m_chart->pos();
        geometry.data = m_chart->data();
        geometry.titleLines = m_page.titleLines();
        geometry.subtitleLines = m_page.subtitleLines();
        geometry.barLabelsShown = m_chart->barLabelsShown();
        // Qt Charts cuts a category name to "…" when the axis has no room for it: too wide for
        // the room left of the plot area, or taller than its category's band.
        if (const QBarCategoryAxis *axis = m_chart->categoryAxis()) {
            const QFontMetricsF names(axis->labelsFont());
            double widest = 0;
            for (const QString &category : geometry.data.categories) {
                if (names.horizontalAdvance(category) > widest) {
                    widest = names.horizontalAdvance(category);
                    geometry.widestCategory = category;
                }
            }
            const double band = geometry.data.categories.isEmpty() ? 0 : m_chart->plotArea().height() / geometry.data.categories.size();
            geometry.categoryNamesCut = widest > m_chart->plotArea().left() || names.height() > band || axisLabelCut();
        }
        geometry.labelPx = m_chart->labelFont().pixelSize() * scale;
        geometry.categoryPx = m_chart->categoryAxis() ? m_chart->categoryAxis()->labelsFont().pixelSize() * scale : 0;
        geometry.footnoteLines = m_page.footnoteLines();
        geometry.plotArea = toImage.mapRect(m_chart->plotArea().translated(offset));
        for (int s = 0; s < int(geometry.data.series.size()); ++s) {
            std::vector<QRectF> bars;
            for (int c = 0; c < geometry.data.categories.size(); ++c)
                bars.push_back(toImage.mapRect(m_chart->barRect(c, s).translated(offset)));
            geometry.bars.push_back(bars);
        }
        for (PlacedLabel label : m_chart->placedLabels()) {
            label.rect = toImage.mapRect(label.rect.translated(offset));
            geometry.labels.push_back(label);
        }
        geometry.valueAxisMax = m_chart->valueAxis() ? m_chart->valueAxis()->max() : 0;
        geometry.valueAxisTicks = m_chart->valueAxis() ? m_chart->valueAxis()->tickCount() : 0;
        return geometry;
    }

    const QString &title() const { return m_title; }

private:
    // What Qt Charts drew on the axis: it elides a category name with "..." (to "..." alone when its
    // label, margins included, is taller than its band) by rules of its own, so read the labels back.
    bool axisLabelCut() const
    {
        const QStringList names = m_data.categories;
        const QList<QGraphicsItem *> items = m_chart->scene() ? m_chart->scene()->items() : QList<QGraphicsItem *>();
        return std::any_of(items.begin(), items.end(), [this, &names](const QGraphicsItem *item) {
            const auto *label = qgraphicsitem_cast<const QGraphicsTextItem *>(item);
            if (!label || !m_chart->isAncestorOf(item) || !label->isVisible())
                return false;
            const QString text = label->toPlainText();
            return (text.endsWith(QLatin1String("...")) || text.endsWith(QChar(0x2026))) && !names.contains(text);
        });
    }

    // Seen across a room, a figure is never smaller than the category name beside it.
    static ChartFontSizes roomFontSizes(QSize size)
    {
        ChartFontSizes sizes = chartFontSizes(QSizeF(size));
        sizes.label = std::max(sizes.label, sizes.axis);
        return sizes;
    }

    // The chart of `dataOptions`' categories, composed with what its marks mean (never left out,
    // whatever the footnote says) above the footnote.
    void composeData(const Figures &figures, ChartKind kind, const ChartDataOptions &dataOptions)
    {
        m_data = buildChartData(figures, kind, dataOptions);
        m_notes = m_data.footnotes;
        if (!m_footnote.isEmpty())
            m_notes << m_footnote;
        compose(m_notes);
    }

    // As the demo does: the totals and the first categories in the order, as many as have room
    // for figures at the room's size; the footnote says how many of how many ("Showing 5 of 11
    // categories"). That line takes room from the plot, so the count is checked once it is drawn.
    void keepCategoriesWithFigures(const Figures &figures, ChartKind kind, ChartDataOptions dataOptions)
    {
        const int servers = int(m_data.series.size());
        for (int limit = m_chart->categoriesFitting(m_roomFonts->label, servers); !m_chart->barLabelsShown() && limit >= 1;
             --limit) {
            dataOptions.maxCategories = limit;
            composeData(figures, kind, dataOptions);
        }
    }

    // Lays the title, subtitle, chart and `notes` (the footnote lines) out in a scene of its own.
    void compose(const QStringList &notes)
    {
        const QRectF area = m_page.compose(m_title, m_subtitle, notes);
        m_chart = new BarChart(m_theme);
        m_chart->setStyleSize(QSizeF(m_size));
        if (m_roomFonts)
            m_chart->setFontSizes(m_roomFonts);
        m_chart->setData(m_data);
        m_page.place(m_chart, area);
    }

    QSize m_size;
    ColorTheme m_theme;
    QString m_title;
    QString m_subtitle;
    QString m_footnote;
    QStringList m_notes;   // the footnote's lines as composed: the marks' meanings, then m_footnote
    std::optional<ChartFontSizes> m_roomFonts;   // meantForARoom(): figures as large as the names
    ChartData m_data;
    ChartPage m_page;
    BarChart *m_chart = nullptr;
};

} // namespace

Status checkExportOptions(const ExportOptions &options)
{
    if (options.size.width() < 1 || options.size.height() < 1)
        return Error{QStringLiteral("image size %1x%2 is empty").arg(options.size.width()).arg(options.size.height())};
    if (!(options.scale >= 0.25 && options.scale <= 8))
        return Error{QStringLiteral("scale %1 is out of range (0.25–8)").arg(options.scale)};
    const QSize pixels = options.pixelSize();
    if (qint64(pixels.width()) * pixels.height() > 400LL * 1000 * 1000)
        return Error{QStringLiteral("image %1x%2 is too large: at most 400 million pixels (1.6 GB in memory)")
                         .arg(pixels.width()).arg(pixels.height())};
    return Status::success();
}

Outcome<QImage> renderChart(const Figures &figures, ChartKind kind, const ExportOptions &options, ChartGeometry *geometry)
{
    if (!figureView(kind).drawnAsBars())
        return Error{QStringLiteral("%1 is not drawn as bars: renderWhyChart() renders it").arg(figureView(kind).stem)};
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{valid.error()};
    ComposedChart chart(figures, kind, options);
    return paintedComposition(chart, options, geometry);
}

std::optional<QSize> sizeForCategoryNames(const Figures &figures, ChartKind kind, const ExportOptions &options)
{
    // Fonts follow the height and the names' room the width: both grow, in steps of 5%.
    for (double factor = 1.05; factor <= 4.0; factor *= 1.05) {
        ExportOptions larger = options;
        larger.size = QSize(int(std::ceil(options.size.width() * factor / 10.0)) * 10,
                            int(std::ceil(options.size.height() * factor / 10.0)) * 10);
        if (checkExportOptions(larger) && !ComposedChart(figures, kind, larger).geometry(1.0).categoryNamesCut)
            return larger.size;
    }
    return std::nullopt;
}

QStringList legibilityProblems(ChartKind kind, const ExportOptions &options, const ChartGeometry &laidOut,
                               const std::optional<QSize> &namesFit)
{
    QStringList problems;
    if (laidOut.categoryNamesCut)
        problems << QStringLiteral("%1 at %2x%3: category names cut short, the chart is too narrow for \"%4\"; %5")
                        .arg(figureView(kind).stem)
                        .arg(options.size.width())
                        .arg(options.size.height())
                        .arg(laidOut.widestCategory,
                             namesFit ? QStringLiteral("they fit from %1x%2").arg(namesFit->width()).arg(namesFit->height())
                                      : QStringLiteral("use a wider size or preset"));
    if (laidOut.barLabelsShown)
        return problems;
    const size_t bars = laidOut.data.series.size() * size_t(laidOut.data.categories.size());
    problems << QStringLiteral("%1 at %2x%3: bar labels left out, %4 bars are too thin for %5 px text; show fewer "
                               "categories or use a taller preset")
                    .arg(figureView(kind).stem)
                    .arg(options.size.width())
                    .arg(options.size.height())
                    .arg(bars)
                    .arg(BarChart::minimumLabelPx);
    return problems;
}

QStringList legibilityProblems(const Figures &figures, ChartKind kind, const ExportOptions &options)
{
    // Bars too thin for their labels and cut category names are a bar chart's.
    if (!figureView(kind).drawnAsBars() || !checkExportOptions(options))
        return {};
    // Laid out, not painted: the geometry is all the check needs.
    const ComposedChart chart(figures, kind, options);
    const ChartGeometry geometry = chart.geometry(1.0);
    return legibilityProblems(kind, options, geometry,
                              geometry.categoryNamesCut ? sizeForCategoryNames(figures, kind, options) : std::nullopt);
}

ExportOptions fittedOptions(const Figures &figures, ChartKind kind, const ExportOptions &options)
{
    ExportOptions fitted = options;
    fitted.tallerWhenCrowded = false;
    if (options.tallerWhenCrowded && figureView(kind).drawnAsBars() && checkExportOptions(options) && !ComposedChart(figures, kind, options).geometry(1.0).barLabelsShown)
        fitted.size = findSizePreset(QStringLiteral("blog-tall"))->size;
    return fitted;
}

Status exportChart(const Figures &figures, ChartKind kind, const ExportOptions &requested, const QString &path,
                   PathOrigin origin)
{
    const ExportOptions options = fittedOptions(figures, kind, requested);
    // A view drawn as parts has its own export, which writes it under its row's stem.
    if (!figureView(kind).drawnAsBars())
        return exportWhyChart(figures, QString(), options, path, origin);
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{QStringLiteral("%1: %2").arg(path, valid.error())};
    ComposedChart chart(figures, kind, options);
    return writeChartFile(chart.page(), options, chart.title(), figureView(kind).stem, path, origin);
}

QString chartFileName(ChartKind kind, ImageFormat format)
{
    return figureView(kind).stem + QLatin1Char('.') + imageFormatExtension(format);
}

Status checkCategoryNames(const Figures &figures, const std::vector<ChartKind> &kinds, const QStringList &names)
{
    QStringList known;
    for (const ChartKind kind : kinds) {
        // Every category the view can show, also those folded into "other" now.
        for (const QString &category : chartCategoryNames(figures, kind))
            if (!known.contains(category))
                known << category;
    }
    for (const QString &name : names) {
        if (std::none_of(known.begin(), known.end(), [&name](const QString &c) { return categoryMatches(c, name); }))
            return Error{QStringLiteral("'%1' is not a category of these charts (they have: %2)").arg(name, known.join(QStringLiteral(", ")))};
    }
    return Status::success();
}
