#pragma once
// A widget showing one live chart (LiveBarChart in a QChartView) for the window. It adds
// what only an interactive view needs: a baseline pick, hidden versions, a category sort
// order and bar tooltips with the exact value and the spread over repeats.
//
// The header names no QtCharts type, so ui/ never includes QtCharts.

#include "chartdata.h"
#include "chartkind.h"
#include "charttheme.h"
#include "resultsbundle.h"
#include <QColor>
#include <QStringList>
#include <QWidget>
#include <memory>

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(ChartKind kind, QWidget *parent = nullptr);
    ~ChartWidget() override;

    ChartKind kind() const;
    // Coalesced: call as often as results arrive; the chart redraws a few times a second,
    // and a chart that is not on screen redraws once, when it is shown.
    void setBundle(const ResultsBundle &bundle);
    // Applies pending results now (tests, screenshots), shown or not.
    void flush();

    void setTheme(ColorTheme theme);
    // Empty: the bundle's baseline, else the oldest version.
    void setBaseline(const QString &serverId);
    void setHiddenVersions(const QStringList &serverIds);
    void setCategoryOrder(CategoryOrder order);

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

Q_SIGNALS:
    void applied();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onApplied();
    void takePending();
    struct Private;
    std::unique_ptr<Private> d;
};
