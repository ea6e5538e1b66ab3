#include "sweepexport.h"

#include "atomicfile.h"
#include "chartfile.h"
#include "chartexporter.h"
#include "sweepchart.h"
#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <cmath>

namespace {

// The chart with its title, subtitle and footnotes, laid out at the options' base size.
class ComposedSweep {
public:
    ComposedSweep(const ResultsBundle &bundle, SweepChartKind kind, const ExportOptions &options)
        : m_size(options.size), m_colors(chartColors(options.theme))
    {
        const ChartFontSizes sizes = chartFontSizes(QSizeF(m_size));
        const double margin = sizes.margin;
        const double width = m_size.width() - 2 * margin;
        m_scene.setSceneRect(QRectF(QPointF(0, 0), QSizeF(m_size)));
        const SweepChartData data = buildSweepChartData(bundle, kind, options.hiddenServers);
        double top = margin * 0.8;
        const QString title = options.title.value_or(defaultSweepTitle(bundle, kind));
        const QFont titleFont = chartFont(sizes.title, true);
        for (const QString &line : title.isEmpty() ? QStringList() : wrappedLines(title, titleFont, width).mid(0, 2))
            top += addText(line, titleFont, m_colors.text, margin, top, width);
        const QString subtitle = options.subtitle.value_or(defaultSweepSubtitle(bundle, kind, options.hiddenServers));
        if (!subtitle.isEmpty())
            top += sizes.title * 0.2 + addText(subtitle, chartFont(sizes.subtitle), m_colors.mutedText, margin, top + sizes.title * 0.2, width);
        top += margin * 0.35;
        QStringList notes = data.footnotes;
        const QString footnote = options.footnote.value_or(defaultSweepFootnote(bundle, options.hiddenServers));
        if (!footnote.isEmpty())
            notes << footnote;
        const QFont footnoteFont = chartFont(sizes.footnote);
        QStringList lines;
        for (const QString &note : notes)
            lines << wrappedLines(note, footnoteFont, width);
        double bottom = m_size.height() - margin * 0.7;
        for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
            bottom -= QFontMetricsF(footnoteFont).height();
            addText(*line, footnoteFont, m_colors.mutedText, margin, bottom, width);
        }
        if (!lines.isEmpty())
            bottom -= margin * 0.35;
        m_chart = new SweepChart(options.theme);
        m_chart->setStyleSize(QSizeF(m_size));
        m_chart->setData(data);
        m_chart->setBackgroundVisible(false);
        m_scene.addItem(m_chart);
        m_chart->setGeometry(QRectF(margin * 0.6, top, m_size.width() - margin * 1.2, bottom - top));
        if (m_chart->layout())
            m_chart->layout()->activate();
    }

    void render(QPainter *painter, const QRectF &target)
    {
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setRenderHint(QPainter::TextAntialiasing, true);
        if (m_colors.background.alpha() > 0)
            painter->fillRect(target, m_colors.background);
        m_scene.render(painter, target, QRectF(QPointF(0, 0), QSizeF(m_size)), Qt::IgnoreAspectRatio);
    }

    SweepGeometry geometry(double scale) const
    {
        SweepGeometry geometry;
        const QTransform toImage = QTransform::fromScale(scale, scale);
        const QPointF offset = m_chart->pos();
        geometry.data = m_chart->data();
        geometry.plotArea = toImage.mapRect(m_chart->plotArea().translated(offset));
        for (const QRectF &label : m_chart->labelRects())
            geometry.labels.push_back(toImage.mapRect(label.translated(offset)));
        return geometry;
    }

private:
    double addText(const QString &text, const QFont &font, const QColor &color, double x, double y, double width)
    {
        auto *item = new QGraphicsSimpleTextItem(QFontMetricsF(font).elidedText(text, Qt::ElideMiddle, width));
        item->setFont(font);
        item->setBrush(color);
        item->setPos(x, y);
        m_scene.addItem(item);
        return QFontMetricsF(font).height();
    }

    QSize m_size;
    ChartColors m_colors;
    QGraphicsScene m_scene;
    SweepChart *m_chart = nullptr;
};

} // namespace

Outcome<QImage> renderSweepChart(const ResultsBundle &bundle, SweepChartKind kind, const ExportOptions &options,
                                 SweepGeometry *geometry)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{valid.error()};
    ComposedSweep chart(bundle, kind, options);
    return paintedComposition(chart, options, geometry);
}

Status exportSweepChart(const ResultsBundle &bundle, SweepChartKind kind, const ExportOptions &options, const QString &path,
                        PathOrigin origin)
{
    if (const Status valid = checkExportOptions(options); !valid)
        return Error{QStringLiteral("%1: %2").arg(path, valid.error())};
    ComposedSweep chart(bundle, kind, options);
    const ChartPainting paint = [&chart](QPainter *painter, const QRectF &area) { chart.render(painter, area); };
    return writeChartFile(paint, options, options.title.value_or(defaultSweepTitle(bundle, kind)), sweepChartFileStem(kind), path,
                          origin);
}

QStringList sweepExportFileNames(const std::vector<SweepChartKind> &kinds, const ExportOptions &options)
{
    QStringList names;
    for (SweepChartKind kind : kinds)
        for (ImageFormat format : options.formats)
            names << sweepChartFileStem(kind) + QLatin1Char('.') + imageFormatExtension(format);
    return names;
}

Outcome<QStringList> exportSweepCharts(const ResultsBundle &bundle, const QString &dir, const ExportOptions &options)
{
    const std::vector<SweepChartKind> kinds = sweepChartKinds(bundle);
    if (kinds.empty())
        return QStringList();
    if (!QDir().mkpath(dir))
        return Error{QStringLiteral("%1: cannot create the export folder").arg(dir)};
    QStringList written;
    const QStringList names = sweepExportFileNames(kinds, options);
    int at = 0;
    for (SweepChartKind kind : kinds) {
        for (size_t f = 0; f < options.formats.size(); ++f, ++at) {
            const QString path = QDir(dir).filePath(names.at(at));
            if (const Status status = exportSweepChart(bundle, kind, options, path, PathOrigin::NamedByVersus); !status)
                return Error{status.error()};
            written << path;
        }
    }
    return written;
}
