#include "chartwidget.h"

#include "chartdata.h"
#include "livebarchart.h"
#include "presentation.h"
#include <QBarSet>
#include <QChartView>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QToolTip>
#include <QVBoxLayout>

struct ChartWidget::Private {
    ChartKind kind;
    LiveBarChart *chart = nullptr;
    QChartView *view = nullptr;
    ResultsBundle bundle;
    QString baseline;
    ChartDataOptions options;
    int connectedRebuild = -1;
    // Results that arrived while the chart was not on screen: laying out a chart is the
    // window's costliest work, so a hidden chart takes them only when it is shown.
    bool pending = false;

    ResultsBundle withChosenBaseline() const
    {
        ResultsBundle picked = bundle;
        if (!baseline.isEmpty() && picked.server(baseline))
            picked.baseline = baseline;
        return picked;
    }
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
}

ChartWidget::~ChartWidget() = default;

ChartKind ChartWidget::kind() const
{
    return d->kind;
}

void ChartWidget::setBundle(const ResultsBundle &bundle)
{
    d->bundle = bundle;
    if (!isVisible()) {
        d->pending = true;
        return;
    }
    d->chart->setBundle(d->withChosenBaseline());
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
    d->chart->setBundle(d->withChosenBaseline());
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
            connect(sets[position], &QBarSet::hovered, this, [this, position, count = int(sets.size())](bool on, int index) {
                if (!on) {
                    QToolTip::hideText();
                    return;
                }
                const int series = count - 1 - position;
                const int category = int(d->chart->data().categories.size()) - 1 - index;
                QToolTip::showText(QCursor::pos(), toolTipFor(series, category), d->view);
            });
        }
    }
    Q_EMIT applied();
}

void ChartWidget::setTheme(ColorTheme theme)
{
    d->chart->setColorTheme(theme);
    const ChartColors colors = chartColors(theme);
    d->view->setBackgroundBrush(colors.background);
}

void ChartWidget::setBaseline(const QString &serverId)
{
    d->baseline = serverId;
    d->pending = false;
    d->chart->setBundle(d->withChosenBaseline());
    d->chart->flush();
}

void ChartWidget::setHiddenVersions(const QStringList &serverIds)
{
    d->options.hiddenServers = serverIds;
    d->chart->setDataOptions(d->options);
    d->chart->flush();
}

void ChartWidget::setCategoryOrder(CategoryOrder order)
{
    d->options.order = order;
    d->chart->setDataOptions(d->options);
    d->chart->flush();
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
