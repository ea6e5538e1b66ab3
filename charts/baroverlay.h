#pragma once
// Draws on top of a BarChart what QtCharts cannot: each bar's own label ("217.6  −10.0%")
// just past its end, min–max error bars, and "unsupported" markers where a server refused
// a category. Where bars are too thin for a marker each (a comparison of two bundles has twice
// the bars), neighbouring markers of a category share one line: "unsupported (Valkey 8.0.1 @ a,
// Valkey 8.0.1 @ b)", so no two texts overlap. A chart without bars shows why instead
// (ChartData::emptyText).

#include <QFont>
#include <QGraphicsItem>
#include <QRectF>
#include <QString>
#include <vector>

class BarChart;
struct ChartBar;

// A text the overlay draws: its line box in chart coordinates.
struct PlacedLabel {
    QRectF rect;
    QString text;
    QFont font;
    bool marker = false;   // "unsupported", "failed", "pending", "n/a"
    bool inside = false;   // drawn inside its bar: the bar's end is too close to the plot's edge
    QColor color;          // a stack's segment label: black or white on its segment; invalid: the theme's text
    int category = 0;
    int series = 0;        // the first of the markers sharing the line
};

class BarOverlay : public QGraphicsItem {
public:
    explicit BarOverlay(BarChart *chart);
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    void chartResized();

    // Horizontal room a label needs after the bar end, in px.
    static double labelGap(const QFont &font);
    // Every label and marker as paint() places them.
    std::vector<PlacedLabel> placedLabels() const;

private:
    void paintEmptyText(QPainter *painter) const;
    void paintWhiskers(QPainter *painter) const;
    void paintLabel(QPainter *painter, const PlacedLabel &label) const;
    double labelStart(const ChartBar &bar, const QRectF &rect, const QFont &font) const;
    void placeMarkers(std::vector<PlacedLabel> &placed, int category, const QFont &font) const;

    BarChart *m_chart;
};
