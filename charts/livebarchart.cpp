#include "livebarchart.h"

LiveBarChart::LiveBarChart(ChartKind kind, ColorTheme theme, QGraphicsItem *parent)
    : BarChart(theme, parent), m_kind(kind)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &LiveBarChart::apply);
}

void LiveBarChart::setBundle(const ResultsBundle &bundle)
{
    m_latest = bundle;
    m_dirty = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void LiveBarChart::flush()
{
    m_timer.stop();
    apply();
}

void LiveBarChart::setDataOptions(const ChartDataOptions &options)
{
    m_options = options;
    m_dirty = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void LiveBarChart::apply()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    setData(buildChartData(m_latest, m_kind, m_options));
    Q_EMIT applied();
}
