#include "chartlegend.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

LegendLayout layOutLegend(const std::vector<LegendEntry> &entries, const QFont &font, double width)
{
    LegendLayout layout;
    if (entries.empty() || width <= 0)
        return layout;
    const QFontMetricsF metrics(font);
    const double em = font.pixelSize() > 0 ? font.pixelSize() : metrics.height() / 1.2;
    const double marker = em * 0.8;
    const double markerGap = em * 0.45;
    const double entryGap = em * 1.6;
    const double lineHeight = metrics.height() * 1.15;
    // Entries in reading order; each row is filled while the next entry fits, then centred.
    std::vector<double> widths;
    for (const LegendEntry &entry : entries)
        widths.push_back(marker + markerGap + metrics.horizontalAdvance(entry.text));
    layout.markers.resize(entries.size());
    layout.texts.resize(entries.size());
    size_t first = 0;
    while (first < entries.size()) {
        size_t last = first;
        double rowWidth = widths[first];
        while (last + 1 < entries.size() && rowWidth + entryGap + widths[last + 1] <= width) {
            ++last;
            rowWidth += entryGap + widths[last];
        }
        double x = std::max(0.0, (width - rowWidth) / 2);
        const double top = layout.rows * lineHeight;
        for (size_t i = first; i <= last; ++i) {
            layout.markers[i] = QRectF(x, top + (lineHeight - marker) / 2, marker, marker);
            layout.texts[i] = QRectF(x + marker + markerGap, top, widths[i] - marker - markerGap, lineHeight);
            x += widths[i] + entryGap;
        }
        ++layout.rows;
        first = last + 1;
    }
    layout.height = layout.rows * lineHeight;
    return layout;
}

ChartLegend::ChartLegend(QGraphicsItem *parent) : QGraphicsItem(parent)
{
    setZValue(1000);
    setAcceptedMouseButtons(Qt::NoButton);
}

void ChartLegend::setEntries(const std::vector<LegendEntry> &entries, const QFont &font, const QColor &textColor,
                             double width)
{
    prepareGeometryChange();
    m_entries = entries;
    m_font = font;
    m_textColor = textColor;
    m_width = width;
    m_layout = layOutLegend(entries, font, width);
    update();
}

QRectF ChartLegend::boundingRect() const
{
    return QRectF(0, 0, m_width, m_layout.height);
}

void ChartLegend::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setFont(m_font);
    for (size_t i = 0; i < m_entries.size() && i < m_layout.texts.size(); ++i) {
        painter->fillRect(m_layout.markers[i], m_entries[i].color);
        painter->setPen(m_textColor);
        painter->drawText(m_layout.texts[i], Qt::AlignLeft | Qt::AlignVCenter, m_entries[i].text);
    }
    painter->restore();
}
