#include "livebarchart.h"

LiveBarChart::LiveBarChart(ChartKind kind, ColorTheme theme, QGraphicsItem *parent)
    : BarChart(theme, parent), m_kind(kind)
{
}

void LiveBarChart::setFigures(const Figures &figures)
{
    m_latest = figures;
    schedule();
}

void LiveBarChart::flush()
{
    apply();
}

void LiveBarChart::setDataOptions(const ChartDataOptions &options)
{
    m_options = options;
    schedule();
}

void LiveBarChart::schedule()
{
    m_dirty = true;
    if (m_scheduled)
        return;
    m_scheduled = true;
    // Posted, not timed: the bundle is shown as soon as the caller's event is over.
    QMetaObject::invokeMethod(this, [this] {
        m_scheduled = false;
        apply();
    }, Qt::QueuedConnection);
}

void LiveBarChart::apply()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    setData(buildChartData(m_latest ? *m_latest : Figures(BundleSnapshot()), m_kind, m_options));
    Q_EMIT applied();
}
