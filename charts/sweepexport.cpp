#include "sweepexport.h"

#include "chartfile.h"
#include "chartpage.h"
#include "sweepchart.h"

namespace {

// The sweep chart on its page, as the bar charts stand on theirs, laid out at the options' base size.
class ComposedSweep {
public:
    ComposedSweep(const Figures &figures, SweepChartKind kind, const ExportOptions &options)
        : m_page(options.size, options.theme)
    {
        const SweepChartData data = buildSweepChartData(figures, kind);
        m_title = options.title.value_or(defaultSweepTitle(figures, kind));
        const QString subtitle = options.subtitle.value_or(defaultSweepSubtitle(figures, kind));
        QStringList notes = data.footnotes;
        const QString footnote = options.footnote.value_or(defaultSweepFootnote(figures));
        if (!footnote.isEmpty())
            notes << footnote;
        const QRectF area = m_page.compose(m_title, subtitle, notes);
        m_chart = new SweepChart(options.theme);
        m_chart->setStyleSize(QSizeF(options.size));
        m_chart->setData(data);
        m_page.place(m_chart, area);
    }

    void render(QPainter *painter, const QRectF &target) { m_page.render(painter, target); }
    ChartPage &page() { return m_page; }
    QString title() const { return m_title; }

    SweepGeometry geometry(double scale) const
    {
        SweepGeometry geometry;
        const QTransform toImage = QTransform::fromScale(scale, scale);
        const QPointF offset = m_chart->pos();
        geometry.data = m_chart->data();
        geometry.plotArea = toImage.mapRect(m_chart->plotArea().translated(offset));
        for (const QRectF &label : m_chart->labelRects())
            geometry.labels.push_back(toImage.mapRect(label.translated(offset)));
        geometry.titleLines = m_page.titleLines();
        geometry.subtitleLines = m_page.subtitleLines();
        return geometry;
    }

private:
    ChartPage m_page;
    QString m_title;
    SweepChart *m_chart = nullptr;
};

} // namespace

Outcome<QImage> renderSweepChart(const Figures &figures, SweepChartKind kind, const ExportOptions &options,
                                 SweepGeometry *geometry)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{valid.error()};
    ComposedSweep chart(figures, kind, options);
    return paintedComposition(chart, options, geometry);
}

Status exportSweepChart(const Figures &figures, SweepChartKind kind, const ExportOptions &options, const QString &path,
                        PathOrigin origin)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{QStringLiteral("%1: %2").arg(path, valid.error())};
    ComposedSweep chart(figures, kind, options);
    return writeChartFile(chart.page(), options, chart.title(), sweepChartFileStem(kind), path, origin);
}
