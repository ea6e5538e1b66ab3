#include "sweepchart.h"

#include "niceaxis.h"
#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace {

const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
const QScatterSeries::MarkerShape markers[] = {QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle,
                                               QScatterSeries::MarkerShapeTriangle,
                                               QScatterSeries::MarkerShapeRotatedRectangle};

} // namespace

SweepChart::SweepChart(ColorTheme theme, QGraphicsItem *parent) : QChart(parent), m_theme(theme)
{
    setAnimationOptions(QChart::NoAnimation);
    setLocale(QLocale(QLocale::English));
    setLocalizeNumbers(true);
    legend()->hide();
    setBackgroundRoundness(0);
    connect(this, &QChart::plotAreaChanged, this, [this] { placeLabels(); });
}

void SweepChart::setData(const SweepChartData &data)
{
    m_data = data;
    rebuild();
}

void SweepChart::setStyleSize(const QSizeF &size)
{
    m_styleSize = size;
    rebuild();
}

void SweepChart::setFontSizes(const std::optional<ChartFontSizes> &sizes)
{
    m_fixedFonts = sizes;
    rebuild();
}

ChartFontSizes SweepChart::fontSizes() const
{
    return m_fixedFonts.value_or(chartFontSizes(m_styleSize.isEmpty() ? size() : m_styleSize));
}

void SweepChart::rebuild()
{
    removeAllSeries();
    for (QAbstractAxis *axis : axes()) {
        removeAxis(axis);
        delete axis;
    }
    for (QGraphicsSimpleTextItem *label : m_labels)
        delete label;
    m_labels.clear();
    const ChartColors colors = chartColors(m_theme);
    const ChartFontSizes sizes = fontSizes();
    // As thick as the text is large: thin on a phone-sized image, not a ribbon on A4.
    const double lineWidth = std::max(2.0, sizes.axis * 0.14);

    QCategoryAxis *xAxis = nullptr;
    QValueAxis *yAxis = nullptr;
    addAxes(xAxis, yAxis);

    const QFont labelFont = chartFont(sizes.label);
    double labelWidth = 0;
    for (const SweepChartLine &line : m_data.lines) {
        const int style = line.style % 4;
        auto *series = new QLineSeries;
        QPen pen(line.color, lineWidth, dashes[style], Qt::RoundCap, Qt::RoundJoin);
        series->setPen(pen);
        auto *points = new QScatterSeries;
        points->setMarkerShape(markers[style]);
        points->setMarkerSize(lineWidth * 4.2);
        points->setColor(line.color);
        points->setBorderColor(line.color);
        for (size_t i = 0; i < line.values.size() && i < m_data.x.size(); ++i) {
            if (!line.values[i])
                continue;
            series->append(m_data.x[i], *line.values[i]);
            points->append(m_data.x[i], *line.values[i]);
        }
        for (QXYSeries *each : {static_cast<QXYSeries *>(series), static_cast<QXYSeries *>(points)}) {
            addSeries(each);
            each->attachAxis(xAxis);
            each->attachAxis(yAxis);
        }
        auto *label = new QGraphicsSimpleTextItem(line.label, this);
        label->setFont(labelFont);
        label->setBrush(line.color.lightnessF() < 0.2 && isDarkTheme(m_theme) ? colors.text : line.color);
        label->setZValue(10);
        m_labels.push_back(label);
        labelWidth = std::max(labelWidth, QFontMetricsF(labelFont).horizontalAdvance(line.label));
    }
    // Room on the right for the names at the lines' ends.
    setMargins(QMargins(0, int(sizes.margin * 0.3), int(labelWidth + sizes.margin * 0.8), 0));
    placeLabels();
}

// The swept values at their places along x, bytes or multiples from zero up.
void SweepChart::addAxes(QCategoryAxis *&xAxis, QValueAxis *&yAxis)
{
    const ChartColors colors = chartColors(m_theme);
    const ChartFontSizes sizes = fontSizes();
    xAxis = new QCategoryAxis;
    xAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (size_t i = 0; i < m_data.x.size(); ++i)
        xAxis->append(m_data.xLabels.value(int(i)), m_data.x[i]);
    const double span = m_data.x.empty() ? 1.0 : m_data.x.back() - m_data.x.front();
    const auto [low, high] = std::minmax_element(m_data.x.begin(), m_data.x.end());
    const double pad = std::abs(span) * 0.04 + (m_data.x.empty() ? 1 : 0);
    xAxis->setRange(m_data.x.empty() ? 0 : *low - pad, m_data.x.empty() ? 1 : *high + pad);
    xAxis->setStartValue(m_data.x.empty() ? 0 : *low - pad);
    xAxis->setTitleText(m_data.xTitle);
    yAxis = new QValueAxis;
    const NiceAxis nice = niceAxis(m_data.largestValue() * 1.05);
    yAxis->setRange(0, nice.max);
    yAxis->setTickCount(nice.tickCount);
    yAxis->setLabelFormat(QStringLiteral("%.") + QString::number(nice.decimals) + QStringLiteral("f")
                          + (m_data.kind == SweepChartKind::Ratio ? QStringLiteral("×") : QString()));
    yAxis->setTitleText(m_data.yTitle);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(xAxis), static_cast<QAbstractAxis *>(yAxis)}) {
        axis->setLabelsFont(chartFont(sizes.axis));
        axis->setLabelsColor(colors.text);
        axis->setTitleFont(chartFont(sizes.axisTitle));
        axis->setTitleBrush(colors.mutedText);
        axis->setGridLineColor(colors.grid);
        axis->setLinePenColor(colors.axisLine);
    }
    xAxis->setGridLineVisible(false);
    addAxis(xAxis, Qt::AlignBottom);
    addAxis(yAxis, Qt::AlignLeft);

}

// Each name beside its line's last point, pushed apart where lines end close together.
void SweepChart::placeLabels()
{
    const QRectF area = plotArea();
    if (m_labels.empty() || area.isEmpty())
        return;
    const double height = m_labels.front()->boundingRect().height() + 1;
    std::vector<std::pair<double, QGraphicsSimpleTextItem *>> wanted;
    for (size_t i = 0; i < m_labels.size() && i < m_data.lines.size(); ++i) {
        const SweepChartLine &line = m_data.lines[i];
        double y = area.center().y();
        for (size_t p = line.values.size(); p-- > 0;) {
            if (line.values[p] && p < m_data.x.size()) {
                y = mapToPosition(QPointF(m_data.x[p], *line.values[p])).y();
                break;
            }
        }
        wanted.push_back({y - height / 2, m_labels[i]});
    }
    std::sort(wanted.begin(), wanted.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 1; i < wanted.size(); ++i)
        wanted[i].first = std::max(wanted[i].first, wanted[i - 1].first + height);
    // What ran past the bottom moves the group up, never above the top.
    const double overflow = wanted.back().first + height - (area.bottom() + height / 2);
    for (size_t i = wanted.size(); overflow > 0 && i-- > 0;) {
        const double limit = i + 1 < wanted.size() ? wanted[i + 1].first - height : area.bottom() - height / 2;
        wanted[i].first = std::min(wanted[i].first, limit);
    }
    const double x = area.right() + fontSizes().margin * 0.35;
    for (const auto &[y, label] : wanted)
        label->setPos(x, y);
}

std::vector<QRectF> SweepChart::labelRects() const
{
    std::vector<QRectF> rects;
    for (const QGraphicsSimpleTextItem *label : m_labels)
        rects.push_back(label->mapRectToParent(label->boundingRect()));
    return rects;
}
