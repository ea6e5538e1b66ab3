#pragma once
// A BarChart for the live view. The run controller is the one place that coalesces a run's
// results (RunController, every 100 ms); the chart shows the figures it is given, laid out on
// the next turn of the event loop. Calls within one turn (a burst of updates, options with
// data) are laid out once, and the layout is an event of its own rather than part of the
// caller's. Updates are applied in place whenever the categories and servers are unchanged.

#include "barchart.h"
#include "figures.h"
#include "resultsbundle.h"
#include <optional>

class LiveBarChart : public BarChart {
    Q_OBJECT
public:
    explicit LiveBarChart(ChartKind kind, ColorTheme theme = ColorTheme::Light, QGraphicsItem *parent = nullptr);

    // Shares the figures (and their snapshot of the results): no copy.
    void setFigures(const Figures &figures);
    // Applies pending results now instead of on the next turn of the event loop.
    void flush();
    bool hasPending() const { return m_dirty; }

    // How the chart lays the figures out (categories picked, how many fit); what it shows
    // (baseline, hidden versions, order) comes with the figures.
    void setDataOptions(const ChartDataOptions &options);

Q_SIGNALS:
    void applied();

private:
    void schedule();
    void apply();

    ChartKind m_kind;
    ChartDataOptions m_options;
    std::optional<Figures> m_latest;
    bool m_dirty = false;
    bool m_scheduled = false;   // an apply() is posted to the event loop
};
