#pragma once
// A BarChart for the live view. setBundle() may be called thousands of times a second: it
// only keeps the latest results, and a single-shot timer (150 ms by default) applies them,
// in place whenever the categories and servers are unchanged.

#include "barchart.h"
#include "resultsbundle.h"
#include <QTimer>

class LiveBarChart : public BarChart {
    Q_OBJECT
public:
    explicit LiveBarChart(ChartKind kind, ColorTheme theme = ColorTheme::Light, QGraphicsItem *parent = nullptr);

    void setBundle(const ResultsBundle &bundle);
    // Applies pending results now instead of at the next tick.
    void flush();
    bool hasPending() const { return m_dirty; }

    void setDataOptions(const ChartDataOptions &options);

Q_SIGNALS:
    void applied();

private:
    void apply();

    ChartKind m_kind;
    ChartDataOptions m_options;
    ResultsBundle m_latest;
    bool m_dirty = false;
    QTimer m_timer;
};
