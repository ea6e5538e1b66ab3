#pragma once
// The legend of a BarChart, drawn by hand. QtCharts 6.4 lays its legend on one row and, when
// the names do not fit, cuts each one short ("Valkey 8.0.1 @…", which in a comparison of two
// bundles cuts the only part that differs). This one puts as many entries on a row as fit,
// centred, wraps the rest to further rows and never shortens a name.

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QRectF>
#include <QString>
#include <vector>

struct LegendEntry {
    QString text;
    QColor color;
};

// Where each entry's colour square and name stand, in the legend's coordinates.
struct LegendLayout {
    std::vector<QRectF> markers;
    std::vector<QRectF> texts;
    double height = 0;
    int rows = 0;
};

LegendLayout layOutLegend(const std::vector<LegendEntry> &entries, const QFont &font, double width);

class ChartLegend : public QGraphicsItem {
public:
    explicit ChartLegend(QGraphicsItem *parent);

    // Lays the entries out in `width`; height() then says how much room they take.
    void setEntries(const std::vector<LegendEntry> &entries, const QFont &font, const QColor &textColor, double width);
    double height() const { return m_layout.height; }
    const std::vector<LegendEntry> &entries() const { return m_entries; }
    const LegendLayout &layout() const { return m_layout; }
    QFont font() const { return m_font; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    std::vector<LegendEntry> m_entries;
    QFont m_font;
    QColor m_textColor;
    double m_width = 0;
    LegendLayout m_layout;
};
