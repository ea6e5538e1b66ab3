#include "baroverlay.h"

#include "barchart.h"
#include <QFontMetricsF>
#include <QHorizontalBarSeries>
#include <QPainter>

namespace {

bool isMarker(const ChartBar &bar)
{
    return bar.unsupported || bar.missing;
}

QFont markerFontOf(QFont font)
{
    font.setItalic(true);
    return font;
}

} // namespace

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

// Where a bar's label starts: after the bar, clear of its whisker's cap.
double BarOverlay::labelStart(const ChartBar &bar, const QRectF &rect, const QFont &font) const
{
    const double gap = labelGap(font);
    double x = rect.right() + gap;
    if (bar.hasRange) {
        const QPointF high = m_chart->mapToPosition(QPointF(bar.max, 0), m_chart->barSeries());
        const double lineWidth = std::max(1.0, font.pixelSize() * 0.1);
        // Clear of the cap, so the whisker does not read as a "|" before the number.
        x = std::max(x, high.x() + lineWidth + gap * 1.5);
    }
    return x;
}

// The markers of one category: one line each when the bars are tall enough for the text, else
// neighbouring markers share a line centred on them.
void BarOverlay::placeMarkers(std::vector<PlacedLabel> &placed, int category, const QFont &font) const
{
    const ChartData &data = m_chart->data();
    const QFont markerFont = markerFontOf(font);
    const QFontMetricsF metrics(markerFont);
    const int seriesCount = int(data.series.size());
    for (int s = 0; s < seriesCount;) {
        if (!isMarker(data.series[size_t(s)].bars[size_t(category)])) {
            ++s;
            continue;
        }
        int last = s;
        while (last + 1 < seriesCount && isMarker(data.series[size_t(last + 1)].bars[size_t(category)]))
            ++last;
        const QRectF first = m_chart->barRect(category, s);
        const double slot = std::abs(m_chart->barRect(category, std::min(s + 1, seriesCount - 1)).center().y()
                                     - first.center().y());
        const bool ownLines = last == s || slot >= metrics.height() * 0.9;
        const int step = ownLines ? 1 : last - s + 1;
        for (int from = s; from <= last; from += step) {
            const int to = from + step - 1;
            QStringList names;
            bool allUnsupported = true;
            for (int i = from; i <= to; ++i) {
                allUnsupported = allUnsupported && data.series[size_t(i)].bars[size_t(category)].unsupported;
                names << data.series[size_t(i)].name;
            }
            QString text = data.series[size_t(from)].bars[size_t(category)].label;
            if (to > from) {
                QStringList labels;
                for (int i = from; i <= to; ++i)
                    labels << data.series[size_t(i)].bars[size_t(category)].label;
                // Servers that all say the same ("pending") say it once.
                const bool alike = QStringList(labels).removeDuplicates() == labels.size() - 1;
                text = allUnsupported ? QStringLiteral("unsupported (%1)").arg(names.join(QStringLiteral(", ")))
                       : alike        ? labels.front()
                                      : labels.join(QStringLiteral(" · "));
            }
            const double centre = (m_chart->barRect(category, from).center().y() + m_chart->barRect(category, to).center().y()) / 2;
            PlacedLabel label;
            label.font = markerFont;
            label.text = text;
            label.marker = true;
            label.category = category;
            label.series = from;
            const double x = m_chart->plotArea().left() + labelGap(font);
            // No taller than the slots of its bars, so it never covers a neighbouring bar.
            const QRectF span = m_chart->barRect(category, from).united(m_chart->barRect(category, to));
            const double height = std::min(metrics.height(), span.height());
            label.rect = QRectF(x, centre - height / 2, metrics.horizontalAdvance(text) * 1.1 + labelGap(font), height);
            placed.push_back(label);
        }
        s = last + 1;
    }
}

std::vector<PlacedLabel> BarOverlay::placedLabels() const
{
    std::vector<PlacedLabel> placed;
    const ChartData &data = m_chart->data();
    if (data.series.empty() || !m_chart->barSeries())
        return placed;
    const QFont font = m_chart->labelFont();
    const QFontMetricsF metrics(font);
    const double gap = labelGap(font);
    const QRectF plot = m_chart->plotArea();
    const bool labels = m_chart->barLabelsShown();
    for (int c = 0; c < data.categories.size(); ++c) {
        placeMarkers(placed, c, font);
        if (!labels)
            continue;
        for (int s = 0; s < int(data.series.size()); ++s) {
            const ChartBar &bar = data.series[size_t(s)].bars[size_t(c)];
            const QRectF rect = m_chart->barRect(c, s);
            if (isMarker(bar) || (rect.isNull() && rect.height() <= 0))
                continue;
            PlacedLabel label;
            label.font = font;
            label.text = bar.label;
            label.category = c;
            label.series = s;
            const double width = metrics.horizontalAdvance(bar.label);
            if (data.stacked) {
                // Inside its segment, centred, where it fits; a thin segment goes unlabelled.
                if (width + gap * 2 > rect.width())
                    continue;
                const QColor fill = data.series[size_t(s)].color;
                label.inside = true;
                const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
                label.color = luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
                const double height = std::min(metrics.height(), rect.height());
                label.rect = QRectF(rect.center().x() - width / 2, rect.center().y() - height / 2, width + gap, height);
                placed.push_back(label);
                continue;
            }
            double x = labelStart(bar, rect, font);
            // Never past the plot's right edge: a label that would be clipped goes inside the bar.
            if (x + width > plot.right() + gap * 2) {
                x = std::max(plot.left(), rect.right() - gap - width);
                label.inside = true;
            }
            // No taller than its bar, so it never covers the neighbouring bar.
            const double height = std::min(metrics.height(), rect.height());
            label.rect = QRectF(x, rect.center().y() - height / 2, width + gap, height);
            placed.push_back(label);
        }
    }
    return placed;
}

void BarOverlay::paintWhiskers(QPainter *painter) const
{
    const ChartData &data = m_chart->data();
    const ChartColors colors = m_chart->colors();
    const QFont font = m_chart->labelFont();
    for (int c = 0; c < data.categories.size(); ++c) {
        for (int s = 0; s < int(data.series.size()); ++s) {
            const ChartBar &bar = data.series[size_t(s)].bars[size_t(c)];
            const QRectF rect = m_chart->barRect(c, s);
            if (!bar.hasRange || (rect.isNull() && rect.height() <= 0))
                continue;
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
        }
    }
}

void BarOverlay::paintLabel(QPainter *painter, const PlacedLabel &label) const
{
    const ChartColors colors = m_chart->colors();
    painter->setFont(label.font);
    painter->setPen(label.color.isValid() ? label.color : label.marker ? colors.mutedText : colors.text);
    const ChartBar &bar = m_chart->data().series[size_t(label.series)].bars[size_t(label.category)];
    // "176.0  −8.0%": the change in the table's colours, green when it is good news.
    const int split = label.text.indexOf(QStringLiteral("  "));
    // The box is the bar's height, a little less than the text's line: the glyphs fit it, the
    // line's empty leading does not, and must not clip them.
    const int flags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip;
    if (label.marker || label.inside || split < 0 || bar.meaning == ChangeMeaning::Neutral) {
        painter->drawText(label.rect, flags, label.text);
        return;
    }
    const QString value = label.text.left(split);
    painter->drawText(label.rect, flags, value);
    painter->setPen(bar.meaning == ChangeMeaning::Better ? colors.better : colors.worse);
    painter->drawText(label.rect.adjusted(QFontMetricsF(label.font).horizontalAdvance(value), 0, 0, 0), flags,
                      label.text.mid(split));
}

// A chart without bars says why, centred where the bars would be.
void BarOverlay::paintEmptyText(QPainter *painter) const
{
    const QString &text = m_chart->data().emptyText;
    if (text.isEmpty())
        return;
    const ChartFontSizes sizes = m_chart->fontSizes();
    const QRectF area = boundingRect().adjusted(sizes.margin, sizes.margin, -sizes.margin, -sizes.margin);
    painter->save();
    painter->setFont(chartFont(sizes.axis));
    painter->setPen(m_chart->colors().mutedText);
    painter->drawText(area, Qt::AlignCenter | Qt::TextWordWrap, text);
    painter->restore();
}

void BarOverlay::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    if (m_chart->data().series.empty() || !m_chart->barSeries()) {
        paintEmptyText(painter);
        return;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    paintWhiskers(painter);
    for (const PlacedLabel &label : placedLabels())
        paintLabel(painter, label);
    painter->restore();
}
