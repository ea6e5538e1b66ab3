#pragma once
// A grouped horizontal bar chart of ChartData: one bar set per server in its own colour,
// categories top to bottom, each bar labelled with its value and change against the
// baseline, error bars for the spread over repeats, and "unsupported" markers. Used by the
// live view (LiveBarChart) and by the exporter. Stacked data (ChartData::stacked, the
// profile) is drawn as one bar per row, its series end to end, the first leftmost, each
// segment labelled inside where its value fits.
//
// QtCharts 6.4 details handled here: themes reset customisations (the theme is applied
// first), bar labels are drawn by BarOverlay (QtCharts cannot show a per-bar text, hides
// zero values and draws white labels on the light theme), categories and sets are added
// in reverse (setReverse is a no-op), and the value axis is ranged by hand with round
// ticks and room for the labels (it does not follow QBarSet::replace).

#include "baroverlay.h"
#include "chartdata.h"
#include "charttheme.h"
#include <QChart>
#include <QFont>
#include <optional>

class QAbstractBarSeries;
class QBarCategoryAxis;
class QValueAxis;
class ChartLegend;

class BarChart : public QChart {
    Q_OBJECT
public:
    explicit BarChart(ColorTheme theme = ColorTheme::Light, QGraphicsItem *parent = nullptr);
    ~BarChart() override;

    // Shows `data`. With the same categories and servers as before, values change in place
    // (QBarSet::replace): no new series, axes or bar sets.
    void setData(const ChartData &data);
    const ChartData &data() const { return m_data; }

    void setColorTheme(ColorTheme theme);
    // Font sizes follow this size (the exported image's); empty = the chart's own size.
    void setStyleSize(const QSizeF &size);
    // Fixed font sizes instead (demo mode on a big screen); nullopt goes back to the style
    // size's. Bar labels then never shrink below sizes.label: bars too thin for them show
    // none. Exports never set this.
    void setFontSizes(const std::optional<ChartFontSizes> &sizes);
    // The sizes in use: the fixed ones, else those of the style size.
    ChartFontSizes fontSizes() const;

    // Where a bar stands, in chart coordinates (category and series as in data()).
    QRectF barRect(int category, int series) const;
    QFont labelFont() const;
    // Bar labels are never drawn smaller than this (layout px, so 22 px at --scale 2): bars
    // too thin for it show no labels, and barLabelsShown() says so (markers such as
    // "unsupported" stay).
    static constexpr double minimumLabelPx = 11.0;
    // minimumLabelPx, or the fixed label size when font sizes are fixed.
    double minimumLabelSize() const;
    bool barLabelsShown() const;
    // How many categories fit with bar labels of `labelPx` for this many servers, in the
    // current plot height (at least 1).
    int categoriesFitting(double labelPx, int seriesCount) const;
    // Every bar label and marker as drawn (chart coordinates).
    std::vector<PlacedLabel> placedLabels() const;
    // The legend as drawn: one entry per series, oldest first, never cut short.
    const ChartLegend *chartLegend() const { return m_legend; }
    ChartColors colors() const { return chartColors(m_theme); }
    QAbstractBarSeries *barSeries() const { return m_series; }
    // The data's series a bar set of barSeries() draws, by its position there.
    int seriesOfSet(int position) const;
    QValueAxis *valueAxis() const { return m_valueAxis; }
    QBarCategoryAxis *categoryAxis() const { return m_categoryAxis; }
    int rebuildCount() const { return m_rebuilds; }

protected:
    void resizeEvent(QGraphicsSceneResizeEvent *event) override;

private:
    void rebuild();
    void updateValues();
    void applyStyle();
    void updateValueAxis();
    void updateLegend();
    QSizeF styleSize() const;
    double groupWidth() const;
    double fittingLabelPx() const;   // the largest label height that fits the bar slots

    ChartData m_data;
    ColorTheme m_theme;
    QSizeF m_styleSize;
    std::optional<ChartFontSizes> m_fixedFonts;
    ChartLegend *m_legend = nullptr;
    QAbstractBarSeries *m_series = nullptr;
    QBarCategoryAxis *m_categoryAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    BarOverlay *m_overlay = nullptr;
    int m_rebuilds = 0;
    bool m_updatingAxis = false;
};
