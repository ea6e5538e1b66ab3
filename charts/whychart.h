#pragma once
// The Why chart: one stacked bar per server, its bytes per key split into the parts the server
// itself reports, in a fixed order and fixed colours (whychartdata.h). Parts below zero stand
// left of zero (a diverging stack), "not attributed" is a neutral grey, the measured bytes per key
// is written at each bar's end, and a legend names the parts above the plot.
//
// Drawn by hand rather than with a QtCharts series: a stacked series cannot mark the net figure
// on a bar that has parts below zero, nor write a total past the bar's end.

#include "chartlegend.h"
#include "charttheme.h"
#include "whychartdata.h"
#include <QGraphicsItem>
#include <QRectF>
#include <QSizeF>
#include <vector>

// Where things stand after layout, in the chart's coordinates.
struct WhyLayout {
    QRectF plotArea;
    double axisMin = 0;                          // the value axis runs from axisMin (≤ 0) to axisMax
    double axisMax = 1;
    double axisStep = 1;
    int axisDecimals = 0;
    std::vector<QRectF> nameRects;               // per bar: the server's name
    std::vector<std::vector<QRectF>> segments;   // per bar, per segment as in WhyBar::segments
    std::vector<QRectF> totalRects;              // per bar: the measured bytes per key's text
    std::vector<QRectF> netMarks;                // per bar: the net figure's mark (empty rect: none)
    std::vector<QRectF> missingRects;            // per bar: why it has no parts (empty rect: it has)
    double labelPx = 0;                          // the segment and total text height
};

class WhyChart : public QGraphicsItem {
public:
    explicit WhyChart(ColorTheme theme, QGraphicsItem *parent = nullptr);

    void setData(const WhyChartData &data);
    const WhyChartData &data() const { return m_data; }
    void setTheme(ColorTheme theme);
    // The chart's own size, and the size its text follows (the exported image's, the view's).
    void setSize(const QSizeF &size, const QSizeF &styleSize);
    QSizeF size() const { return m_size; }

    WhyLayout layout() const { return m_layout; }
    const ChartLegend *legend() const { return m_legend; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    void relayout();
    double legendHeight() const;
    void layOutAxis(const ChartFontSizes &sizes);
    void layOutBars(const ChartFontSizes &sizes);
    double xOf(double value) const;
    void paintAxis(QPainter *painter) const;
    void paintBar(QPainter *painter, size_t index) const;

    ColorTheme m_theme;
    QSizeF m_size;
    QSizeF m_styleSize;
    WhyChartData m_data;
    WhyLayout m_layout;
    ChartLegend *m_legend = nullptr;
};
