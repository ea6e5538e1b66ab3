#include "barchart.h"

#include "baroverlay.h"
#include "chartlegend.h"
#include "niceaxis.h"
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLocale>
#include <QLegendMarker>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace {

// Share of a category's height taken by its bars; the rest separates groups.
constexpr double barGroupWidth = 0.82;
// One category (per-event, throughput) would give slabs; keep those bars moderate.
constexpr double singleGroupWidth = 0.6;

double barValue(const ChartBar &bar)
{
    return bar.unsupported || bar.missing ? 0.0 : bar.value;
}

} // namespace

BarChart::BarChart(ColorTheme theme, QGraphicsItem *parent)
    : QChart(parent), m_theme(theme)
{
    setAnimationOptions(QChart::NoAnimation);
    // Axis numbers with the same thousands separator as the bar labels ("5,000", not "5000").
    setLocale(QLocale(QLocale::English));
    setLocalizeNumbers(true);
    m_overlay = new BarOverlay(this);
    m_legend = new ChartLegend(this);
    applyStyle();
    connect(this, &QChart::plotAreaChanged, this, [this] { updateValueAxis(); });
}

BarChart::~BarChart() = default;

void BarChart::setData(const ChartData &data)
{
    const bool inPlace = m_series && data.sameShape(m_data);
    m_data = data;
    if (inPlace)
        updateValues();
    else
        rebuild();
    updateValueAxis();
    m_overlay->update();
}

void BarChart::setColorTheme(ColorTheme theme)
{
    m_theme = theme;
    applyStyle();
}

void BarChart::setStyleSize(const QSizeF &size)
{
    m_styleSize = size;
    applyStyle();
}

void BarChart::setFontSizes(const std::optional<ChartFontSizes> &sizes)
{
    m_fixedFonts = sizes;
    applyStyle();
}

ChartFontSizes BarChart::fontSizes() const
{
    return m_fixedFonts.value_or(chartFontSizes(styleSize()));
}

double BarChart::groupWidth() const
{
    return m_data.categories.size() == 1 ? singleGroupWidth : barGroupWidth;
}

QSizeF BarChart::styleSize() const
{
    return m_styleSize.isEmpty() ? size() : m_styleSize;
}

void BarChart::rebuild()
{
    ++m_rebuilds;
    removeAllSeries();   // deletes the series and its bar sets
    m_series = nullptr;
    for (QAbstractAxis *axis : axes())
        removeAxis(axis);
    delete m_categoryAxis;
    delete m_valueAxis;
    m_categoryAxis = nullptr;
    m_valueAxis = nullptr;
    if (m_data.series.empty()) {
        // Nothing measured: no axis from 0 to 1 with rows no run filled; the overlay says why.
        applyStyle();
        return;
    }

    if (m_data.stacked) {
        m_series = new QHorizontalStackedBarSeries(this);
        static_cast<QHorizontalStackedBarSeries *>(m_series)->setBarWidth(groupWidth());
    } else {
        m_series = new QHorizontalBarSeries(this);
        static_cast<QHorizontalBarSeries *>(m_series)->setBarWidth(groupWidth());
    }
    m_series->setLabelsVisible(false);
    for (int position = 0; position < int(m_data.series.size()); ++position) {
        const ChartSeries &series = m_data.series[size_t(seriesOfSet(position))];
        auto *set = new QBarSet(series.name);
        for (int c = int(m_data.categories.size()) - 1; c >= 0; --c)
            *set << barValue(series.bars[size_t(c)]);
        m_series->append(set);
    }
    addSeries(m_series);

    m_categoryAxis = new QBarCategoryAxis(this);
    QStringList reversed = m_data.categories;
    std::reverse(reversed.begin(), reversed.end());
    m_categoryAxis->append(reversed);
    m_valueAxis = new QValueAxis(this);
    m_valueAxis->setTickType(QValueAxis::TicksFixed);
    addAxis(m_categoryAxis, Qt::AlignLeft);
    addAxis(m_valueAxis, Qt::AlignBottom);
    m_series->attachAxis(m_categoryAxis);
    m_series->attachAxis(m_valueAxis);
    applyStyle();
}

int BarChart::seriesOfSet(int position) const
{
    // Set 0 is drawn lowest in each group: servers go newest first so the oldest is on top. A
    // stack starts with set 0 on the left: the first part first.
    return m_data.stacked ? position : int(m_data.series.size()) - 1 - position;
}

void BarChart::updateValues()
{
    const QList<QBarSet *> sets = m_series->barSets();
    const int seriesCount = int(m_data.series.size());
    const int categoryCount = int(m_data.categories.size());
    bool renamed = false;
    for (int position = 0; position < seriesCount; ++position) {
        QBarSet *set = sets.at(position);
        const ChartSeries &series = m_data.series[size_t(seriesOfSet(position))];
        // An endpoint's name is known once the run has asked it who it is.
        renamed = renamed || set->label() != series.name;
        set->setLabel(series.name);
        for (int c = 0; c < categoryCount; ++c) {
            const double value = barValue(series.bars[size_t(c)]);
            const int index = categoryCount - 1 - c;
            if (set->at(index) != value)
                set->replace(index, value);
        }
    }
    if (renamed)
        updateLegend();
}

void BarChart::applyStyle()
{
    // setTheme() resets every customisation, so it comes first.
    setTheme(isDarkTheme(m_theme) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    setAnimationOptions(QChart::NoAnimation);
    const ChartColors colors = chartColors(m_theme);
    const ChartFontSizes sizes = fontSizes();
    setBackgroundRoundness(0);
    setBackgroundVisible(m_theme == ColorTheme::Dark);
    setBackgroundBrush(colors.background);
    setBackgroundPen(Qt::NoPen);
    setPlotAreaBackgroundVisible(false);
    setDropShadowEnabled(false);
    if (layout())
        layout()->setContentsMargins(0, 0, 0, 0);
    setTitleBrush(colors.text);
    setTitleFont(chartFont(sizes.title, true));
    legend()->setVisible(false);   // ChartLegend draws it, on as many rows as it needs
    updateLegend();

    if (m_series) {
        const QList<QBarSet *> sets = m_series->barSets();
        const int seriesCount = int(m_data.series.size());
        for (int position = 0; position < seriesCount && position < sets.size(); ++position) {
            QBarSet *set = sets.at(position);
            const QColor color = m_data.series[size_t(seriesOfSet(position))].color;
            set->setColor(color);
            set->setBorderColor(color);
            set->setPen(QPen(color, 0));
        }
    }
    const QPen gridPen(colors.grid, std::max(1.0, sizes.axis / 16.0));
    const QPen axisPen(colors.axisLine, std::max(1.0, sizes.axis / 16.0));
    if (m_categoryAxis) {
        m_categoryAxis->setLabelsFont(chartFont(sizes.axis));
        m_categoryAxis->setLabelsColor(colors.text);
        m_categoryAxis->setLinePen(axisPen);
        m_categoryAxis->setGridLineVisible(false);
    }
    if (m_valueAxis) {
        m_valueAxis->setLabelsFont(chartFont(sizes.axis * 0.92));
        m_valueAxis->setLabelsColor(colors.mutedText);
        m_valueAxis->setGridLinePen(gridPen);
        m_valueAxis->setLinePen(axisPen);
        m_valueAxis->setTitleText(m_data.valueTitle);
        m_valueAxis->setTitleFont(chartFont(sizes.axisTitle));
        m_valueAxis->setTitleBrush(colors.mutedText);
        m_valueAxis->setMinorTickCount(0);
    }
    updateValueAxis();
    m_overlay->update();
}

void BarChart::resizeEvent(QGraphicsSceneResizeEvent *event)
{
    QChart::resizeEvent(event);
    m_overlay->chartResized();
    if (m_styleSize.isEmpty())
        applyStyle();
    else
        updateLegend();
}

// The legend above the plot: the chart's top margin makes room for its rows.
void BarChart::updateLegend()
{
    const ChartFontSizes sizes = fontSizes();
    std::vector<LegendEntry> entries;
    for (const ChartSeries &series : m_data.series)
        entries.push_back({series.name, series.color});
    const double width = size().width() - sizes.margin * 0.5;
    m_legend->setEntries(entries, chartFont(sizes.legend), chartColors(m_theme).text, width);
    const double top = sizes.margin * 0.25;
    m_legend->setPos(0, top);
    const double legendRoom = m_legend->height() > 0 ? m_legend->height() + sizes.legend * 0.5 : 0;
    const QMargins margins(0, int(top + legendRoom), int(sizes.margin * 0.5), 0);
    if (this->margins() != margins)
        setMargins(margins);
}

double BarChart::fittingLabelPx() const
{
    const int seriesCount = m_data.stacked ? 1 : std::max<int>(1, int(m_data.series.size()));
    const int categoryCount = std::max<int>(1, int(m_data.categories.size()));
    // A label's em box fits its bar's height, so no glyph reaches into the neighbouring bar.
    const double bar = plotArea().height() / categoryCount * groupWidth() / seriesCount;
    return bar > 0 ? bar : fontSizes().label;
}

double BarChart::minimumLabelSize() const
{
    return m_fixedFonts ? m_fixedFonts->label : minimumLabelPx;
}

bool BarChart::barLabelsShown() const
{
    return fittingLabelPx() >= minimumLabelSize();
}

int BarChart::categoriesFitting(double labelPx, int seriesCount) const
{
    // The inverse of fittingLabelPx() for several categories.
    const double perCategory = std::max(1, seriesCount) * labelPx / barGroupWidth;
    return std::max(1, int(plotArea().height() / perCategory));
}

std::vector<PlacedLabel> BarChart::placedLabels() const
{
    return m_overlay->placedLabels();
}

QFont BarChart::labelFont() const
{
    const ChartFontSizes sizes = fontSizes();
    return chartFont(std::max(minimumLabelSize(), std::min(sizes.label, fittingLabelPx())));
}

QRectF BarChart::barRect(int category, int series) const
{
    if (!m_series || category < 0 || series < 0 || category >= m_data.categories.size()
        || series >= int(m_data.series.size()))
        return {};
    const int categoryCount = int(m_data.categories.size());
    const int seriesCount = int(m_data.series.size());
    const double axisIndex = categoryCount - 1 - category;
    const double value = barValue(m_data.series[size_t(series)].bars[size_t(category)]);
    // A stack's segment starts where the parts before it end, over the row's whole height.
    double from = 0;
    for (int before = 0; m_data.stacked && before < series; ++before)
        from += barValue(m_data.series[size_t(before)].bars[size_t(category)]);
    const int setIndex = m_data.stacked ? 0 : seriesCount - 1 - series;
    const double barHeight = m_data.stacked ? groupWidth() : groupWidth() / seriesCount;
    const double bottom = axisIndex - groupWidth() / 2 + setIndex * barHeight;
    // mapToPosition() is not const in QtCharts 6.4 although it changes nothing.
    auto *chart = const_cast<BarChart *>(this);
    const QPointF start = chart->mapToPosition(QPointF(from, bottom), m_series);
    const QPointF end = chart->mapToPosition(QPointF(from + value, bottom + barHeight), m_series);
    return QRectF(start, end).normalized();
}

void BarChart::updateValueAxis()
{
    if (!m_valueAxis || m_updatingAxis)
        return;
    m_updatingAxis = true;
    const double width = plotArea().width();
    const QFont font = labelFont();
    const QFontMetricsF metrics(font);
    const double gap = BarOverlay::labelGap(font);
    // The axis must reach far enough that every bar's label fits after the bar; a stack's
    // labels are inside its segments.
    double needed = m_data.largestExtent();
    const bool labelsAfterBars = width > 0 && barLabelsShown() && !m_data.stacked;
    if (labelsAfterBars) {
        for (const ChartSeries &series : m_data.series) {
            for (const ChartBar &bar : series.bars) {
                const double end = bar.hasRange ? std::max(bar.value, bar.max) : barValue(bar);
                const double room = width - gap - metrics.horizontalAdvance(bar.label);
                if (room > width * 0.25 && end > 0)
                    needed = std::max(needed, end * width / room);
                else if (end > 0)
                    needed = std::max(needed, end * 4.0 / 3.0);
            }
        }
    }
    const int maxIntervals = width > 0 ? std::clamp(int(width / (fontSizes().axis * 5)), 2, 10) : 8;
    NiceAxis axis = niceAxis(needed > 0 ? needed : 1.0, maxIntervals);
    // The plot's width follows the axis's labels, and the room the labels need follows the
    // width: an axis that just grew shrinks back only when clearly no longer needed, so the
    // two never take turns (QtCharts would keep the last range with the previous ticks). A
    // stack's labels sit inside it, so its axis follows its total alone: shares end at 100.
    const double current = m_valueAxis->max();
    if (labelsAfterBars && axis.max < current && axis.max < needed * 1.01
        && current <= niceAxis(needed * 1.01, maxIntervals).max)
        axis = niceAxis(needed * 1.01, maxIntervals);
    if (m_valueAxis->max() != axis.max || m_valueAxis->min() != 0)
        m_valueAxis->setRange(0, axis.max);
    if (m_valueAxis->tickCount() != axis.tickCount)
        m_valueAxis->setTickCount(axis.tickCount);
    const QString format = axis.step >= 1000 ? QStringLiteral("%.0f") : QStringLiteral("%.%1f").arg(axis.decimals);
    if (m_valueAxis->labelFormat() != format)
        m_valueAxis->setLabelFormat(format);
    m_updatingAxis = false;
}
