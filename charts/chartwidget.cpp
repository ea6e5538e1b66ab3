#include "chartwidget.h"

#include "chartdata.h"
#include "chartlegend.h"
#include "livebarchart.h"
#include "presentation.h"
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

struct ChartWidget::Private {
    ChartKind kind;
    LiveBarChart *chart = nullptr;
    QChartView *view = nullptr;
    ChartDataOptions options;
    int connectedRebuild = -1;
    bool labelsShown = true;
    bool fixedFonts = false;
    bool fitCategories = false;
    // Results that arrived while the chart was not on screen: laying out a chart is the
    // window's costliest work, so a hidden chart takes them only when it is shown.
    bool pending = false;
    std::optional<Figures> figures;   // the latest, shared with every view
};

ChartWidget::ChartWidget(ChartKind kind, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->kind = kind;
    // Results come coalesced by the run controller (every 100 ms); the live chart lays out
    // each bundle on the next turn of the event loop.
    d->chart = new LiveBarChart(kind);
    d->chart->setTitle(QString());
    d->view = new QChartView(d->chart);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setFrameShape(QFrame::NoFrame);
    d->view->setMouseTracking(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    connect(d->chart, &LiveBarChart::applied, this, &ChartWidget::onApplied);
    d->pending = true;   // the empty state, laid out when first shown, until results come
    // Queued: the plot area changes while QtCharts lays the chart out, no time to rebuild it.
    connect(d->chart, &QChart::plotAreaChanged, this, &ChartWidget::fitCategories, Qt::QueuedConnection);
}

ChartWidget::~ChartWidget() = default;

ChartKind ChartWidget::kind() const
{
    return d->kind;
}

void ChartWidget::setFigures(const Figures &figures)
{
    d->figures = figures;
    if (!isVisible()) {
        d->pending = true;
        return;
    }
    d->chart->setFigures(figures);
}

void ChartWidget::flush()
{
    takePending();
    d->chart->flush();
}

void ChartWidget::takePending()
{
    if (!d->pending)
        return;
    d->pending = false;
    if (d->figures)
        d->chart->setFigures(*d->figures);
    else
        d->chart->setDataOptions(d->options);   // the empty state: "No results yet"
}

void ChartWidget::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (d->pending) {
        takePending();
        d->chart->flush();
    }
}

void ChartWidget::onApplied()
{
    // Bar sets are new after a rebuild: hook their hover signals again.
    if (d->connectedRebuild != d->chart->rebuildCount() && d->chart->barSeries()) {
        d->connectedRebuild = d->chart->rebuildCount();
        const QList<QBarSet *> sets = d->chart->barSeries()->barSets();
        for (int position = 0; position < sets.size(); ++position) {
            // BarChart adds the newest server first and the categories bottom-up.
            connect(sets[position], &QBarSet::hovered, this, [this, position](bool on, int index) {
                if (!on) {
                    QToolTip::hideText();
                    return;
                }
                const int series = d->chart->seriesOfSet(position);
                const int category = int(d->chart->data().categories.size()) - 1 - index;
                QToolTip::showText(QCursor::pos(), toolTipFor(series, category), d->view);
            });
        }
    }
    fitCategories();
    Q_EMIT applied();
}

void ChartWidget::setFontSizes(const std::optional<ChartFontSizes> &sizes)
{
    d->fixedFonts = sizes.has_value();
    d->chart->setFontSizes(sizes);
    fitCategories();
}

void ChartWidget::setFitCategoriesToLabels(bool fit)
{
    d->fitCategories = fit;
    fitCategories();
}

// Also tells when the bar labels come or go. The limit follows the plot's height and the
// number of servers only, never the categories shown, so applying it settles at once.
void ChartWidget::fitCategories()
{
    if (d->chart->barLabelsShown() != d->labelsShown) {
        d->labelsShown = !d->labelsShown;
        Q_EMIT barLabelsShownChanged();
    }
    const int seriesCount = int(d->chart->data().series.size());
    const int limit = d->fitCategories && d->fixedFonts && seriesCount > 0 && d->chart->plotArea().height() > 0
        ? d->chart->categoriesFitting(d->chart->fontSizes().label, seriesCount)
        : 0;
    if (limit == d->options.maxCategories)
        return;
    d->options.maxCategories = limit;
    d->chart->setDataOptions(d->options);
    d->chart->flush();
}

void ChartWidget::setTheme(ColorTheme theme)
{
    d->chart->setColorTheme(theme);
    const ChartColors colors = chartColors(theme);
    d->view->setBackgroundBrush(colors.background);
}

int ChartWidget::barSetCount() const
{
    return d->chart->barSeries() ? int(d->chart->barSeries()->count()) : 0;
}

int ChartWidget::categoryCount() const
{
    return int(d->chart->data().categories.size());
}

QStringList ChartWidget::categories() const
{
    return d->chart->data().categories;
}

QStringList ChartWidget::seriesNames() const
{
    QStringList names;
    for (const ChartSeries &series : d->chart->data().series)
        names << series.name;
    return names;
}

QColor ChartWidget::seriesColor(int series) const
{
    const std::vector<ChartSeries> &all = d->chart->data().series;
    return series >= 0 && series < int(all.size()) ? all[size_t(series)].color : QColor();
}

double ChartWidget::barValue(int series, int category) const
{
    const ChartData &data = d->chart->data();
    if (series < 0 || series >= int(data.series.size()) || category < 0 || category >= data.categories.size())
        return 0;
    return data.series[size_t(series)].bars[size_t(category)].value;
}

QStringList ChartWidget::footnotes() const
{
    return d->chart->data().footnotes;
}

QString ChartWidget::emptyText() const
{
    return d->chart->data().emptyText;
}

bool ChartWidget::axesShown() const
{
    return d->chart->valueAxis() != nullptr;
}

QFont ChartWidget::categoryAxisFont() const
{
    return d->chart->categoryAxis() ? d->chart->categoryAxis()->labelsFont() : QFont();
}

QFont ChartWidget::valueAxisFont() const
{
    return d->chart->valueAxis() ? d->chart->valueAxis()->labelsFont() : QFont();
}

QFont ChartWidget::barLabelFont() const
{
    return d->chart->labelFont();
}

QFont ChartWidget::legendFont() const
{
    return d->chart->chartLegend()->font();
}

bool ChartWidget::barLabelsShown() const
{
    return d->chart->barLabelsShown();
}

QStringList ChartWidget::legendTexts() const
{
    QStringList texts;
    for (const LegendEntry &entry : d->chart->chartLegend()->entries())
        texts << entry.text;
    return texts;
}

QList<QRectF> ChartWidget::legendTextRects() const
{
    QList<QRectF> rects;
    const ChartLegend *legend = d->chart->chartLegend();
    for (const QRectF &rect : legend->layout().texts) {
        const QRectF inViewport = d->view->viewportTransform().mapRect(legend->mapRectToScene(rect));
        rects << inViewport.translated(d->view->viewport()->mapTo(this, QPoint(0, 0)));
    }
    return rects;
}

std::vector<PlacedLabel> ChartWidget::barLabels() const
{
    std::vector<PlacedLabel> labels = d->chart->placedLabels();
    const QPoint viewport = d->view->viewport()->mapTo(this, QPoint(0, 0));
    for (PlacedLabel &label : labels)
        label.rect = d->view->viewportTransform().mapRect(d->chart->mapRectToScene(label.rect)).translated(viewport);
    return labels;
}

QString ChartWidget::toolTipFor(int series, int category) const
{
    const ChartData &data = d->chart->data();
    if (series < 0 || series >= int(data.series.size()) || category < 0 || category >= data.categories.size())
        return QString();
    const ChartSeries &line = data.series[size_t(series)];
    const ChartBar &bar = line.bars[size_t(category)];
    QString text = QStringLiteral("<b>%1</b> · %2<br>").arg(line.name.toHtmlEscaped(), data.categories[category].toHtmlEscaped());
    if (bar.unsupported)
        return text + tr("unsupported by this version") + (bar.note.isEmpty() ? QString() : QStringLiteral(": ") + bar.note.toHtmlEscaped());
    if (bar.missing)
        return text + (bar.note.isEmpty() ? tr("no figure") : bar.note.toHtmlEscaped());
    text += QStringLiteral("%1 %2").arg(formatFigure(bar.value), data.valueTitle.toHtmlEscaped());
    if (line.baseline) {
        text += tr(" (baseline)");
    } else if (bar.change) {
        for (const ChartSeries &other : data.series) {
            if (other.baseline)
                text += QStringLiteral(" (%1 vs %2)").arg(formatPercentChange(*bar.change), other.name.toHtmlEscaped());
        }
    }
    if (bar.repeats > 1)
        text += QStringLiteral("<br>") + tr("median of %1 repeats, min %2, max %3")
                                             .arg(bar.repeats)
                                             .arg(formatFigure(bar.min), formatFigure(bar.max));
    else
        text += QStringLiteral("<br>") + tr("one repeat, no spread");
    if (bar.growing)
        text += QStringLiteral("<br>") + tr("still being measured");
    else if (!bar.note.isEmpty())
        text += QStringLiteral("<br>") + bar.note.toHtmlEscaped();
    return text;
}
