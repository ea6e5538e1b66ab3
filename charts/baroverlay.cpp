#include "baroverlay.h"

#include "barchart.h"
#include <QFontMetricsF>
#include <QHorizontalBarSeries>
#include <QPainter>

BarOverlay::BarOverlay(BarChart *chart) : QGraphicsItem(chart), m_chart(chart)
{
    setZValue(1000);   // above the series and axes
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF BarOverlay::boundingRect() const
{
    return QRectF(QPointF(0, 0), m_chart->size());
}

void BarOverlay::chartResized()
{
    prepareGeometryChange();
}

double BarOverlay::labelGap(const QFont &font)
{
    return QFontMetricsF(font).height() * 0.35;
}

void BarOverlay::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const ChartData &data = m_chart->data();
    if (data.series.empty() || !m_chart->barSeries())
        return;
    const ChartColors colors = m_chart->colors();
    const QFont font = m_chart->labelFont();
    QFont markerFont = font;
    markerFont.setItalic(true);
    const QFontMetricsF metrics(font);
    const double gap = labelGap(font);
    const QRectF plot = m_chart->plotArea();
    const bool labels = m_chart->barLabelsShown();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (int c = 0; c < data.categories.size(); ++c) {
        for (int s = 0; s < int(data.series.size()); ++s) {
            const ChartBar &bar = data.series[size_t(s)].bars[size_t(c)];
            const QRectF rect = m_chart->barRect(c, s);
            if (rect.isNull() && rect.height() <= 0)
                continue;
            double labelX = rect.right() + gap;
            if (bar.hasRange) {
                const QPointF low = m_chart->mapToPosition(QPointF(bar.min, 0), m_chart->barSeries());
                const QPointF high = m_chart->mapToPosition(QPointF(bar.max, 0), m_chart->barSeries());
                const double y = rect.center().y();
                // Sized by the text, not the bar: fat bars of one-category charts get thin whiskers.
                const double cap = std::min(rect.height() * 0.3, font.pixelSize() * 0.45);
                const double lineWidth = std::max(1.0, font.pixelSize() * 0.1);
                painter->setPen(QPen(colors.errorBar, lineWidth, Qt::SolidLine, Qt::FlatCap));
                painter->drawLine(QPointF(low.x(), y), QPointF(high.x(), y));
                painter->drawLine(QPointF(low.x(), y - cap), QPointF(low.x(), y + cap));
                painter->drawLine(QPointF(high.x(), y - cap), QPointF(high.x(), y + cap));
                // Clear of the cap, so the whisker does not read as a "|" before the number.
                labelX = std::max(labelX, high.x() + lineWidth + gap * 1.5);
            }
            const bool marker = bar.unsupported || bar.missing;
            if (!labels && !marker)
                continue;
            painter->setFont(marker ? markerFont : font);
            painter->setPen(marker ? colors.mutedText : colors.text);
            const double width = metrics.horizontalAdvance(bar.label) * (marker ? 1.1 : 1.0);
            // Never past the plot's right edge: a label that would be clipped goes inside the bar.
            bool inside = false;
            if (labelX + width > plot.right() + gap * 2 && !marker) {
                labelX = std::max(plot.left(), rect.right() - gap - width);
                inside = true;
            }
            const QRectF textRect(labelX, rect.center().y() - metrics.height() / 2, width + gap, metrics.height());
            // "176.0  −8.0%": the change in the table's colours, green when it is good news.
            const int split = bar.label.indexOf(QStringLiteral("  "));
            if (marker || inside || split < 0 || bar.meaning == ChangeMeaning::Neutral) {
                painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, bar.label);
                continue;
            }
            const QString value = bar.label.left(split);
            painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, value);
            painter->setPen(bar.meaning == ChangeMeaning::Better ? colors.better : colors.worse);
            painter->drawText(textRect.adjusted(metrics.horizontalAdvance(value), 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                              bar.label.mid(split));
        }
    }
    painter->restore();
}
