#include "chartwidget.h"

#include "chartdata.h"
#include "livebarchart.h"
#include "presentation.h"
#include <QBarSet>
#include <QChartView>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

struct ChartWidget::Private {
    ChartKind kind;
    LiveBarChart *chart = nullptr;
    QChartView *view = nullptr;
    ResultsBundle bundle;
    QString baseline;
    QStringList hidden;
    CategoryOrder order = CategoryOrder::Workload;
    ChartData shown;
    QTimer coalesce;
    bool dirty = false;
    int connectedRebuild = -1;

    ChartData build() const
    {
        ResultsBundle picked = bundle;
        if (!baseline.isEmpty() && picked.server(baseline))
            picked.baseline = baseline;
        // While a run goes on, a repeat is "incomplete" until it ends, and chart data only
        // draws finished repeats: the live view shows the figures measured so far instead,
        // so the bars grow during the replay.
        if (!picked.complete) {
            for (ServerRun &run : picked.servers)
                for (RepeatResult &repeat : run.repeats)
                    if (repeat.status == QLatin1String("incomplete"))
                        repeat.status = QStringLiteral("ok");
        }
        // Built from the whole bundle so each version keeps its colour when others are hidden.
        ChartData data = buildChartData(picked, kind);
        data.series.erase(std::remove_if(data.series.begin(), data.series.end(),
                                         [this](const ChartSeries &series) { return hidden.contains(series.serverId); }),
                          data.series.end());
        sortCategories(data);
        return data;
    }

    void sortCategories(ChartData &data) const
    {
        if (order == CategoryOrder::Workload || data.categories.size() < 2)
            return;
        // Totals ("All attributes") stay on top and the folded rest ("other") at the bottom.
        auto rank = [](const QString &name) {
            if (name.startsWith(QLatin1String("All ")))
                return 0;
            return name == QLatin1String("other") ? 2 : 1;
        };
        const ChartSeries *reference = nullptr;
        for (const ChartSeries &series : data.series)
            if (series.serverId == data.baselineId)
                reference = &series;
        if (!reference && !data.series.empty())
            reference = &data.series.front();
        std::vector<int> indices(size_t(data.categories.size()));
        for (size_t i = 0; i < indices.size(); ++i)
            indices[i] = int(i);
        std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
            const QString &nameA = data.categories[a];
            const QString &nameB = data.categories[b];
            if (rank(nameA) != rank(nameB))
                return rank(nameA) < rank(nameB);
            if (order == CategoryOrder::Name)
                return nameA.compare(nameB, Qt::CaseInsensitive) < 0;
            const double valueA = reference ? reference->bars[size_t(a)].value : 0;
            const double valueB = reference ? reference->bars[size_t(b)].value : 0;
            return valueA > valueB;
        });
        QStringList categories;
        for (int index : indices)
            categories << data.categories[index];
        data.categories = categories;
        for (ChartSeries &series : data.series) {
            std::vector<ChartBar> bars;
            for (int index : indices)
                bars.push_back(series.bars[size_t(index)]);
            series.bars = bars;
        }
    }
};

ChartWidget::ChartWidget(ChartKind kind, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->kind = kind;
    d->chart = new LiveBarChart(kind);
    d->chart->setTitle(QString());
    d->view = new QChartView(d->chart);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setFrameShape(QFrame::NoFrame);
    d->view->setMouseTracking(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);

    // Results may arrive many times a second; the chart is rebuilt at most every 150 ms.
    d->coalesce.setSingleShot(true);
    d->coalesce.setInterval(150);
    connect(&d->coalesce, &QTimer::timeout, this, &ChartWidget::flush);
}

ChartWidget::~ChartWidget() = default;

ChartKind ChartWidget::kind() const
{
    return d->kind;
}

void ChartWidget::setBundle(const ResultsBundle &bundle)
{
    d->bundle = bundle;
    d->dirty = true;
    if (!d->coalesce.isActive())
        d->coalesce.start();
}

void ChartWidget::flush()
{
    d->coalesce.stop();
    if (!d->dirty)
        return;
    d->dirty = false;
    d->shown = d->build();
    d->chart->setData(d->shown);

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
                const int category = int(d->shown.categories.size()) - 1 - index;
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
    d->dirty = true;
    flush();
}

void ChartWidget::setHiddenVersions(const QStringList &serverIds)
{
    d->hidden = serverIds;
    d->dirty = true;
    flush();
}

void ChartWidget::setCategoryOrder(CategoryOrder order)
{
    d->order = order;
    d->dirty = true;
    flush();
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

double ChartWidget::barValue(int series, int category) const
{
    const ChartData &data = d->chart->data();
    if (series < 0 || series >= int(data.series.size()) || category < 0 || category >= data.categories.size())
        return 0;
    return data.series[size_t(series)].bars[size_t(category)].value;
}

QString ChartWidget::toolTipFor(int series, int category) const
{
    const ChartData &data = d->shown;
    if (series < 0 || series >= int(data.series.size()) || category < 0 || category >= data.categories.size())
        return QString();
    const ChartSeries &line = data.series[size_t(series)];
    const ChartBar &bar = line.bars[size_t(category)];
    QString text = QStringLiteral("<b>%1</b> · %2<br>").arg(line.name.toHtmlEscaped(), data.categories[category].toHtmlEscaped());
    if (bar.unsupported)
        return text + tr("unsupported by this version");
    if (bar.missing)
        return text + tr("no figure");
    text += QStringLiteral("%1 %2").arg(QString::number(bar.value, 'g', 8), data.valueTitle.toHtmlEscaped());
    if (!line.baseline) {
        for (const ChartSeries &other : data.series) {
            if (other.baseline && !other.bars[size_t(category)].missing && !other.bars[size_t(category)].unsupported)
                text += QStringLiteral(" (%1 vs %2)")
                            .arg(formatChange(bar.value, other.bars[size_t(category)].value), other.name.toHtmlEscaped());
        }
    } else {
        text += tr(" (baseline)");
    }
    int repeats = 0;
    if (const ServerRun *run = d->bundle.server(line.serverId))
        for (const RepeatResult &repeat : run->repeats)
            repeats += repeat.status == QLatin1String("ok") ? 1 : 0;
    if (repeats > 1)
        text += QStringLiteral("<br>") + tr("median of %1 repeats, min %2, max %3 (spread %4%)")
                                             .arg(repeats)
                                             .arg(formatFigure(bar.min), formatFigure(bar.max))
                                             .arg(bar.value != 0 ? QString::number((bar.max - bar.min) / bar.value * 100.0, 'f', 1)
                                                                 : QStringLiteral("0"));
    else
        text += QStringLiteral("<br>") + tr("one repeat, no spread");
    return text;
}
