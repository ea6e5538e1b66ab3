#pragma once
// A widget showing one live chart (LiveBarChart in a QChartView) for the window. It shows the
// figures it is given (their options say the baseline, the hidden versions and the category
// order) and adds what only an interactive view needs: fonts that fit, and bar tooltips with
// the exact value and the spread over repeats.
//
// The header names no QtCharts type, so ui/ never includes QtCharts.

#include "baroverlay.h"
#include "chartdata.h"
#include "figureviews.h"
#include "charttheme.h"
#include "resultsbundle.h"
#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(ChartKind kind, QWidget *parent = nullptr);
    ~ChartWidget() override;

    ChartKind kind() const;
    // Coalesced: call as often as results arrive; the chart redraws a few times a second,
    // and a chart that is not on screen redraws once, when it is shown. Shares the figures.
    void setFigures(const Figures &figures);
    // Applies pending results now (tests, screenshots), shown or not.
    void flush();

    void setTheme(ColorTheme theme);
    // Fixed font sizes in pixels (demo mode on a big screen) instead of sizes that follow the
    // widget; nullopt goes back. Bar labels are then never smaller than sizes.label.
    // Exports are not affected: they lay their own charts out.
    void setFontSizes(const std::optional<ChartFontSizes> &sizes);
    // With fixed font sizes: show only as many categories as have room for their bar labels
    // (totals first, then the Sort's order); a footnote says how many are shown.
    void setFitCategoriesToLabels(bool fit);

    // What is on screen, for tests and the window.
    int barSetCount() const;
    int categoryCount() const;
    QStringList categories() const;      // top to bottom
    QStringList seriesNames() const;     // oldest first
    QColor seriesColor(int series) const;
    double barValue(int series, int category) const;
    QString toolTipFor(int series, int category) const;
    // What the marks on the bars and the partial totals mean, one line each.
    QStringList footnotes() const;
    // Without bars: why, as the chart shows it in their place; empty when it has bars.
    QString emptyText() const;
    bool axesShown() const;
    // The text as drawn, for tests and the window.
    QFont categoryAxisFont() const;
    QFont valueAxisFont() const;
    QFont barLabelFont() const;
    QFont legendFont() const;
    bool barLabelsShown() const;
    QStringList legendTexts() const;      // oldest first, as drawn (never shortened)
    // Each legend entry's name, in widget coordinates.
    QList<QRectF> legendTextRects() const;
    // The bar labels and markers as drawn, in widget coordinates.
    std::vector<PlacedLabel> barLabels() const;

Q_SIGNALS:
    void applied();
    // The bars became too thin for their labels, or thick enough again (a resize, new results).
    void barLabelsShownChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onApplied();
    void takePending();
    void fitCategories();
    struct Private;
    std::unique_ptr<Private> d;
};
