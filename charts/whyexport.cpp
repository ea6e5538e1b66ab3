#include "whyexport.h"

#include "chartdata.h"
#include "chartfile.h"
#include "chartpage.h"
#include "figureviews.h"
#include <QPainter>

namespace {

// The Why chart on its page, laid out at the options' base size.
class ComposedWhy {
public:
    ComposedWhy(const Figures &figures, const QString &categoryId, const ExportOptions &options)
        : m_page(options.size, options.theme)
    {
        const QString category = categoryId.isEmpty() ? defaultWhyCategory(figures) : categoryId;
        const MemoryExplanation explanation = figures.explainMemory(category.isEmpty() ? QStringLiteral("all") : category);
        const std::optional<MemoryExplanation> reference = referenceExplanation(figures, explanation);
        const WhyChartData data = buildWhyChartData(figures, explanation, reference ? &*reference : nullptr);
        m_title = options.title.value_or(whyChartTitle(explanation, reference ? &*reference : nullptr));
        const QString subtitle = options.subtitle.value_or(whySubtitle(figures, explanation));
        m_footnotes = whyFootnotes(figures, explanation, data);
        const QString provenance = options.footnote.value_or(defaultChartFootnote(figures));
        if (!provenance.isEmpty())
            m_footnotes << provenance;
        const QRectF area = m_page.compose(m_title, subtitle, m_footnotes);
        m_chart = new WhyChart(options.theme);
        m_chart->setData(data);
        m_chart->setSize(area.size(), QSizeF(options.size));
        m_chart->setPos(area.topLeft());
        m_page.scene().addItem(m_chart);   // the scene owns it
    }

    void render(QPainter *painter, const QRectF &target) { m_page.render(painter, target); }
    ChartPage &page() { return m_page; }
    QString title() const { return m_title; }

    WhyGeometry geometry(double scale) const
    {
        const QTransform toImage = QTransform::fromScale(scale, scale);
        const QPointF offset = m_chart->pos();
        const auto toImageRect = [&](const QRectF &rect) {
            return rect.isEmpty() ? QRectF() : toImage.mapRect(rect.translated(offset));
        };
        const WhyLayout layout = m_chart->layout();
        WhyGeometry geometry;
        geometry.data = m_chart->data();
        geometry.plotArea = toImageRect(layout.plotArea);
        for (const std::vector<QRectF> &bar : layout.segments) {
            std::vector<QRectF> segments;
            for (const QRectF &segment : bar)
                segments.push_back(toImage.mapRect(segment.translated(offset)));
            geometry.segments.push_back(segments);
        }
        for (const QRectF &total : layout.totalRects)
            geometry.totals.push_back(toImageRect(total));
        for (const QRectF &mark : layout.netMarks)
            geometry.netMarks.push_back(toImageRect(mark));
        for (const LegendEntry &entry : m_chart->legend()->entries())
            geometry.legend << entry.text;
        geometry.titleLines = m_page.titleLines();
        geometry.subtitleLines = m_page.subtitleLines();
        geometry.footnotes = m_footnotes;
        return geometry;
    }

private:
    ChartPage m_page;
    QString m_title;
    QStringList m_footnotes;
    WhyChart *m_chart = nullptr;
};

} // namespace

Outcome<QImage> renderWhyChart(const Figures &figures, const QString &categoryId, const ExportOptions &options,
                               WhyGeometry *geometry)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{valid.error()};
    ComposedWhy chart(figures, categoryId, options);
    return paintedComposition(chart, options, geometry);
}

Status exportWhyChart(const Figures &figures, const QString &categoryId, const ExportOptions &options,
                      const QString &path, PathOrigin origin)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{QStringLiteral("%1: %2").arg(path, valid.error())};
    ComposedWhy chart(figures, categoryId, options);
    return writeChartFile(chart.page(), options, chart.title(), figureView(ChartKind::WhyMemory).stem, path, origin);
}

QString defaultWhyTitle(const Figures &figures)
{
    const QString category = defaultWhyCategory(figures);
    const MemoryExplanation explanation = figures.explainMemory(category.isEmpty() ? QStringLiteral("all") : category);
    const std::optional<MemoryExplanation> reference = referenceExplanation(figures, explanation);
    return whyChartTitle(explanation, reference ? &*reference : nullptr);
}
