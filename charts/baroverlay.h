#pragma once
// Draws on top of a BarChart what QtCharts cannot: each bar's own label ("217.6  −10.0%")
// just past its end, min–max error bars, and "unsupported" markers where a server refused
// a category.

#include <QGraphicsItem>

class BarChart;

class BarOverlay : public QGraphicsItem {
public:
    explicit BarOverlay(BarChart *chart);
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    void chartResized();

    // Horizontal room a label needs after the bar end, in px.
    static double labelGap(const QFont &font);

private:
    BarChart *m_chart;
};
