#include "whychart.h"

#include "niceaxis.h"
#include "presentation.h"
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

// Share of a row's height a bar takes; the rest separates the servers.
constexpr double barShare = 0.62;
// A bar is at most this many label heights thick: the plot takes the page's height (a tall page,
// A4 portrait or the 4:5 presets, is not left half blank), and few servers do not make slabs.
constexpr double thickestBar = 8.0;

// Where each segment starts and ends in value units: parts at or above zero stack rightwards from
// zero, parts below zero leftwards, each in the bar's order. Layout only: no figure is shown from it.
std::vector<std::pair<double, double>> segmentSpans(const WhyBar &bar)
{
    std::vector<std::pair<double, double>> spans;
    double right = 0;
    double left = 0;
    for (const WhySegment &segment : bar.segments) {
        if (segment.bytesPerKey >= 0) {
            spans.emplace_back(right, right + segment.bytesPerKey);
            right += segment.bytesPerKey;
        } else {
            spans.emplace_back(left + segment.bytesPerKey, left);
            left += segment.bytesPerKey;
        }
    }
    return spans;
}

std::pair<double, double> barExtent(const WhyBar &bar)
{
    double low = 0;
    double high = 0;
    for (const auto &[from, to] : segmentSpans(bar)) {
        low = std::min(low, from);
        high = std::max(high, to);
    }
    return {low, high};
}

QColor textOn(const QColor &fill)
{
    // Dark text on the light fills (orange, sky blue, light grey), white on the others.
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.45 ? QColor(0x1f, 0x23, 0x28) : QColor(Qt::white);
}

} // namespace

WhyChart::WhyChart(ColorTheme theme, QGraphicsItem *parent) : QGraphicsItem(parent), m_theme(theme)
{
    m_legend = new ChartLegend(this);
    setAcceptedMouseButtons(Qt::NoButton);
}

void WhyChart::setData(const WhyChartData &data)
{
    m_data = data;
    relayout();
}

void WhyChart::setTheme(ColorTheme theme)
{
    m_theme = theme;
    relayout();
}

void WhyChart::setSize(const QSizeF &size, const QSizeF &styleSize)
{
    prepareGeometryChange();
    m_size = size;
    m_styleSize = styleSize;
    relayout();
}

QRectF WhyChart::boundingRect() const
{
    return QRectF(QPointF(0, 0), m_size);
}

double WhyChart::legendHeight() const
{
    return m_legend->height() > 0 ? m_legend->height() + m_legend->font().pixelSize() * 0.6 : 0;
}

void WhyChart::relayout()
{
    const ChartFontSizes sizes = chartFontSizes(m_styleSize.isEmpty() ? m_size : m_styleSize);
    std::vector<LegendEntry> entries;
    for (const WhyLegendEntry &entry : m_data.legend)
        entries.push_back({entry.label, whyPartColor(entry.partId, m_theme)});
    m_legend->setEntries(entries, chartFont(sizes.legend), chartColors(m_theme).text, m_size.width());
    m_legend->setPos(0, 0);
    m_layout = WhyLayout();
    if (!m_data.empty()) {
        layOutAxis(sizes);
        layOutBars(sizes);
    }
    update();
}

// The names' column, the plot, and a value axis with round steps that holds every bar, the parts
// below zero and the total written after the longest bar.
void WhyChart::layOutAxis(const ChartFontSizes &sizes)
{
    const QFont nameFont = chartFont(sizes.axis);
    const QFontMetricsF names(nameFont);
    double nameWidth = 0;
    for (const WhyBar &bar : m_data.bars)
        nameWidth = std::max(nameWidth, names.horizontalAdvance(bar.name));
    nameWidth = std::min(nameWidth, m_size.width() * 0.32);
    const double gap = sizes.axis * 0.8;
    const QFontMetricsF ticks(chartFont(sizes.axis * 0.92));
    const double axisRoom = ticks.height() * 1.3 + QFontMetricsF(chartFont(sizes.axisTitle)).height() * 1.2;
    const double legend = legendHeight();
    const double plotHeight = std::max(1.0, m_size.height() - legend - axisRoom);
    m_layout.plotArea = QRectF(nameWidth + gap, legend, std::max(1.0, m_size.width() - nameWidth - gap - sizes.margin * 0.5),
                               plotHeight);

    const QFont labelFont = chartFont(sizes.label);
    const QFontMetricsF labels(labelFont);
    double low = 0;
    double high = 0;
    double widestTotal = 0;
    for (const WhyBar &bar : m_data.bars) {
        const auto [from, to] = barExtent(bar);
        low = std::min(low, from);
        high = std::max(high, to);
        widestTotal = std::max(widestTotal, labels.horizontalAdvance(bar.total));
    }
    const double width = m_layout.plotArea.width();
    const double textRoom = std::min(widestTotal + sizes.label, width * 0.45);
    // The span the bars need, stretched so the widest total fits after the longest bar.
    const double span = std::max(1e-9, (high - low) * width / std::max(1.0, width - textRoom));
    const int maxIntervals = std::clamp(int(width / (sizes.axis * 5)), 2, 10);
    const NiceAxis axis = niceAxis(span, maxIntervals);
    m_layout.axisStep = axis.step;
    m_layout.axisDecimals = axis.decimals;
    m_layout.axisMin = low < 0 ? -std::ceil(-low / axis.step - 1e-9) * axis.step : 0;
    m_layout.axisMax = std::max(axis.step, std::ceil((low + span) / axis.step - 1e-9) * axis.step);
    // Rounding the ends changes the scale: add steps until the widest total fits after the bars.
    for (int more = 0; more < 10; ++more) {
        const double room = (m_layout.axisMax - high) / (m_layout.axisMax - m_layout.axisMin) * width;
        if (room >= textRoom)
            break;
        m_layout.axisMax += axis.step;
    }
}

double WhyChart::xOf(double value) const
{
    const QRectF &plot = m_layout.plotArea;
    const double range = m_layout.axisMax - m_layout.axisMin;
    return plot.left() + (value - m_layout.axisMin) / (range > 0 ? range : 1) * plot.width();
}

void WhyChart::layOutBars(const ChartFontSizes &sizes)
{
    const QRectF &plot = m_layout.plotArea;
    const double row = plot.height() / double(m_data.bars.size());
    const double barHeight = std::min(row * barShare, sizes.label * thickestBar);
    m_layout.labelPx = std::min(sizes.label, barHeight * 0.62);
    const QFontMetricsF labels(chartFont(m_layout.labelPx));
    const QFontMetricsF names(chartFont(sizes.axis));
    for (size_t i = 0; i < m_data.bars.size(); ++i) {
        const WhyBar &bar = m_data.bars[i];
        const double middle = plot.top() + row * (double(i) + 0.5);
        const double barTop = middle - barHeight / 2;
        m_layout.nameRects.push_back(QRectF(0, middle - names.height() / 2, plot.left() - sizes.axis * 0.8, names.height()));
        std::vector<QRectF> segments;
        for (const auto &[from, to] : segmentSpans(bar))
            segments.push_back(QRectF(QPointF(xOf(from), barTop), QPointF(xOf(to), barTop + barHeight)));
        m_layout.segments.push_back(segments);
        const double end = xOf(barExtent(bar).second);
        m_layout.totalRects.push_back(bar.segments.empty()
                                          ? QRectF()
                                          : QRectF(end + m_layout.labelPx * 0.5, middle - labels.height() / 2,
                                                   labels.horizontalAdvance(bar.total) + 1, labels.height()));
        const bool marked = m_data.hasNegativePart && !bar.segments.empty();
        const double mark = std::max(2.0, m_layout.labelPx * 0.16);
        m_layout.netMarks.push_back(marked ? QRectF(xOf(bar.bytesPerKey) - mark / 2, barTop - barHeight * 0.18, mark,
                                                    barHeight * 1.36)
                                           : QRectF());
        m_layout.missingRects.push_back(bar.segments.empty()
                                            ? QRectF(xOf(0) + m_layout.labelPx * 0.5, middle - labels.height() / 2,
                                                     plot.right() - xOf(0) - m_layout.labelPx * 0.5, labels.height())
                                            : QRectF());
    }
}

void WhyChart::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const ChartColors colors = chartColors(m_theme);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (m_data.empty()) {
        const ChartFontSizes sizes = chartFontSizes(m_styleSize.isEmpty() ? m_size : m_styleSize);
        painter->setFont(chartFont(sizes.axis));
        painter->setPen(colors.mutedText);
        painter->drawText(boundingRect().adjusted(sizes.margin, 0, -sizes.margin, 0), Qt::AlignCenter | Qt::TextWordWrap,
                          m_data.emptyText);
        painter->restore();
        return;
    }
    paintAxis(painter);
    for (size_t i = 0; i < m_data.bars.size(); ++i)
        paintBar(painter, i);
    painter->restore();
}

void WhyChart::paintAxis(QPainter *painter) const
{
    const ChartColors colors = chartColors(m_theme);
    const ChartFontSizes sizes = chartFontSizes(m_styleSize.isEmpty() ? m_size : m_styleSize);
    const QRectF &plot = m_layout.plotArea;
    const double line = std::max(1.0, sizes.axis / 16.0);
    const QFont tickFont = chartFont(sizes.axis * 0.92);
    const QFontMetricsF ticks(tickFont);
    painter->setFont(tickFont);
    const QLocale english(QLocale::English);
    const int count = int(std::lround((m_layout.axisMax - m_layout.axisMin) / m_layout.axisStep));
    for (int i = 0; i <= count; ++i) {
        const double value = m_layout.axisMin + i * m_layout.axisStep;
        const double x = xOf(value);
        const bool zero = std::abs(value) < m_layout.axisStep * 1e-6;
        painter->setPen(QPen(zero ? colors.axisLine : colors.grid, zero ? line * 1.5 : line));
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString text = english.toString(zero ? 0.0 : value, 'f', m_layout.axisDecimals);
        painter->setPen(colors.mutedText);
        painter->drawText(QRectF(x - 100, plot.bottom() + ticks.height() * 0.2, 200, ticks.height()), Qt::AlignHCenter | Qt::AlignTop,
                          text);
    }
    const QFont titleFont = chartFont(sizes.axisTitle);
    painter->setFont(titleFont);
    painter->drawText(QRectF(plot.left(), plot.bottom() + ticks.height() * 1.3, plot.width(), QFontMetricsF(titleFont).height()),
                      Qt::AlignHCenter | Qt::AlignTop, m_data.valueTitle);
}

void WhyChart::paintBar(QPainter *painter, size_t index) const
{
    const ChartColors colors = chartColors(m_theme);
    const ChartFontSizes sizes = chartFontSizes(m_styleSize.isEmpty() ? m_size : m_styleSize);
    const WhyBar &bar = m_data.bars[index];
    const QFont nameFont = chartFont(sizes.axis);
    painter->setFont(nameFont);
    painter->setPen(colors.text);
    const QRectF nameRect = m_layout.nameRects[index];
    painter->drawText(nameRect, Qt::AlignRight | Qt::AlignVCenter,
                      QFontMetricsF(nameFont).elidedText(bar.name, Qt::ElideMiddle, nameRect.width()));
    const QFont labelFont = chartFont(m_layout.labelPx);
    const QFontMetricsF labels(labelFont);
    painter->setFont(labelFont);
    // A thin line of the ground's colour between segments, so neighbours of like lightness part;
    // on a transparent page the ground is unknown, and the colours part by themselves.
    const QPen seam = colors.background.alpha() > 0 ? QPen(colors.background, std::max(1.0, sizes.axis / 16.0)) : QPen(Qt::NoPen);
    for (size_t s = 0; s < bar.segments.size(); ++s) {
        const QRectF rect = m_layout.segments[index][s];
        const QColor fill = whyPartColor(bar.segments[s].partId, m_theme);
        painter->setPen(seam);
        painter->setBrush(fill);
        painter->drawRect(rect);
        if (labels.horizontalAdvance(bar.segments[s].text) + m_layout.labelPx * 0.6 <= rect.width()) {
            painter->setPen(textOn(fill));
            painter->drawText(rect, Qt::AlignCenter, bar.segments[s].text);
        }
    }
    painter->setBrush(Qt::NoBrush);
    if (!m_layout.netMarks[index].isEmpty())
        painter->fillRect(m_layout.netMarks[index], colors.text);
    painter->setPen(colors.text);
    if (!m_layout.totalRects[index].isEmpty())
        painter->drawText(m_layout.totalRects[index], Qt::AlignLeft | Qt::AlignVCenter, bar.total);
    if (!m_layout.missingRects[index].isEmpty()) {
        painter->setPen(colors.mutedText);
        const QRectF rect = m_layout.missingRects[index];
        painter->drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, labels.elidedText(bar.missing, Qt::ElideRight, rect.width()));
    }
}
