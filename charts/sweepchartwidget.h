#pragma once
// The window's view of a sweep: the sweep chart (sweepchart.h) in a view, with a choice of bytes
// per key or the ratio to the reference category, titled as the export is. The header names no
// QtCharts type, so ui/ never includes QtCharts.

#include "charttheme.h"
#include "figures.h"
#include "resultsbundle.h"
#include "sweepchartdata.h"
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

class SweepChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepChartWidget(QWidget *parent = nullptr);
    ~SweepChartWidget() override;

    // The figures' bundle and hidden versions; each point's own figures come from the figures
    // layer's sweep tables. Shares the bundle.
    void setFigures(const Figures &figures);
    void setTheme(ColorTheme theme);
    // Demo mode's fixed font sizes (the bar charts' own), for the chart and its title; nullopt:
    // text that follows the view's size.
    void setFontSizes(const std::optional<ChartFontSizes> &sizes);
    SweepChartKind kind() const;
    void setKind(SweepChartKind kind);

    // What is on screen, for tests: the title and subtitle, and the lines' names.
    QString titleText() const;
    QStringList lineLabels() const;
    // Results without a sweep: why the tab has no chart, as it says in its place; empty with one.
    QString emptyText() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    struct Private;
    std::unique_ptr<Private> d;
};
