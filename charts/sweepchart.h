#pragma once
// The sweep chart: a line per server and category against the swept parameter, each line
// named at its right end in its server's colour, the categories told apart by dash and marker.

#include "charttheme.h"
#include "sweepchartdata.h"
#include <QChart>
#include <QSizeF>
#include <optional>
#include <vector>

class QCategoryAxis;
class QGraphicsSimpleTextItem;
class QValueAxis;

class SweepChart : public QChart {
    Q_OBJECT
public:
    explicit SweepChart(ColorTheme theme, QGraphicsItem *parent = nullptr);

    void setData(const SweepChartData &data);
    const SweepChartData &data() const { return m_data; }
    // Font sizes and line widths follow this size (the exported image's); empty = the chart's own.
    void setStyleSize(const QSizeF &size);
    // Fixed font sizes instead (demo mode on a big screen, as the bar charts have them); nullopt
    // goes back to the style size's. Exports never set this.
    void setFontSizes(const std::optional<ChartFontSizes> &sizes);
    // Where each line's end label stands, in chart coordinates, after layout.
    std::vector<QRectF> labelRects() const;

private:
    void rebuild();
    void addAxes(QCategoryAxis *&xAxis, QValueAxis *&yAxis);
    void placeLabels();
    ChartFontSizes fontSizes() const;

    ColorTheme m_theme;
    QSizeF m_styleSize;
    std::optional<ChartFontSizes> m_fixedFonts;
    SweepChartData m_data;
    std::vector<QGraphicsSimpleTextItem *> m_labels;
};
