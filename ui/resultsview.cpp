#include "resultsview.h"

#include "bundlecsv.h"
#include "bundlemarkdown.h"
#include "chartdata.h"
#include "chartwidget.h"
#include "configurationview.h"
#include "encodingsview.h"
#include "headlinecallout.h"
#include "logview.h"
#include "palette.h"
#include "releasenotesmarkdown.h"
#include "sweepchartwidget.h"
#include "whyview.h"
#include "presentation.h"
#include "resultstablemodel.h"
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace {

QIcon swatch(const QColor &color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

} // namespace

ResultsView::ResultsView(QWidget *parent) : QWidget(parent)
{
    m_headline = new QLabel;
    m_headline->setObjectName(QStringLiteral("headline"));
    QFont headlineFont = m_headline->font();
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.45);
    headlineFont.setBold(true);
    m_headline->setFont(headlineFont);
    m_headlineFont = headlineFont;
    m_headline->setWordWrap(true);
    m_callout = new HeadlineCallout;
    m_callout->hide();
    m_subtitle = new QLabel;
    m_subtitle->setStyleSheet(QStringLiteral("color: #607d8b;"));
    m_subtitle->setWordWrap(true);
    m_footnotes = new QLabel;
    m_footnotes->setObjectName(QStringLiteral("chartFootnotes"));
    m_footnotes->setStyleSheet(QStringLiteral("color: #607d8b;"));
    m_footnotes->setWordWrap(true);
    QHBoxLayout *controls = buildControls();
    buildTabs();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_headline);
    layout->addWidget(m_callout);
    layout->addWidget(m_subtitle);
    layout->addLayout(controls);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_footnotes);
    updateControls();
    updateHeadline();
}

// Baseline, shown versions, sort order and Copy, above the tabs.
QHBoxLayout *ResultsView::buildControls()
{
    m_baseline = new QComboBox;
    m_baseline->setObjectName(QStringLiteral("baseline"));
    m_baseline->setToolTip(tr("Changes are shown against this version"));
    // As wide as its longest name, and never narrower: a narrow window cut "Redis 7.0.15" to
    // "Redi…0.15" when the box could shrink to its minimum.
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    connect(m_baseline, qOverload<int>(&QComboBox::activated), this,
            [this] { setBaseline(m_baseline->currentData().toString()); });

    m_versionsMenu = new QMenu(this);
    m_versions = new QToolButton;
    m_versions->setObjectName(QStringLiteral("versions"));
    m_versions->setText(tr("Versions ▾"));
    m_versions->setToolTip(tr("Show or hide versions in the charts"));
    m_versions->setPopupMode(QToolButton::InstantPopup);
    m_versions->setMenu(m_versionsMenu);
    m_versions->setToolButtonStyle(Qt::ToolButtonTextOnly);

    m_order = new QComboBox;
    m_order->setObjectName(QStringLiteral("categoryOrder"));
    m_order->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_order->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    m_order->addItem(tr("Workload order"), int(CategoryOrder::Workload));
    m_order->addItem(tr("Largest first"), int(CategoryOrder::Value));
    m_order->addItem(tr("Largest change first"), int(CategoryOrder::Change));
    m_order->addItem(tr("By name"), int(CategoryOrder::Name));
    connect(m_order, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        showChosenFigures();
        Q_EMIT viewChanged();
    });

    auto *copyMenu = new QMenu(this);
    copyMenu->addAction(tr("Copy table as Markdown"), this, &ResultsView::copyMarkdown);
    copyMenu->addAction(tr("Copy data as CSV"), this, &ResultsView::copyCsv);
    auto *copy = new QToolButton;
    copy->setText(tr("Copy ▾"));
    copy->setPopupMode(QToolButton::InstantPopup);
    copy->setMenu(copyMenu);
    // Qt's small corner arrow reads as a rendering glitch; a plain caret in the text does not.
    for (QToolButton *button : {m_versions, copy})
        button->setStyleSheet(QStringLiteral("QToolButton { padding: 3px 10px; } QToolButton::menu-indicator { image: none; }"));

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Baseline")));
    controls->addWidget(m_baseline);
    controls->addSpacing(12);
    controls->addWidget(m_versions);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Sort")));
    controls->addWidget(m_order);
    controls->addStretch();
    controls->addWidget(copy);

    return controls;
}

// One tab per chart, then the table, the encodings and the logs.
void ResultsView::buildTabs()
{
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("resultTabs"));
    m_tabs->setDocumentMode(true);
    // Every tab is there whatever the results: one without its figures says why, so no tab comes
    // and goes between runs. Each view's row says how it is drawn.
    for (ChartKind kind : everyChartKind()) {
        if (!figureView(kind).drawnAsBars()) {
            addWhyTab(kind);
            continue;
        }
        auto *chart = new ChartWidget(kind);
        chart->setObjectName(figureView(kind).stem);
        chart->setFigures(m_figures);
        connect(chart, &ChartWidget::applied, this, &ResultsView::updateFootnotes);
        connect(chart, &ChartWidget::barLabelsShownChanged, this, &ResultsView::updateFootnotes);
        m_charts[kind] = chart;
        m_tabs->addTab(chart, figureView(kind).tabTitle);
    }

    m_model = new ResultsTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultsTableModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ResultsTableModel::ServerColumn, Qt::AscendingOrder);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_tabs->addTab(m_table, tr("Table"));

    m_encodings = new EncodingsView;
    m_tabs->addTab(m_encodings, tr("Encodings"));
    // A sweep's figures against the swept parameter.
    m_sweep = new SweepChartWidget;
    m_sweep->setObjectName(QStringLiteral("sweep"));
    m_tabs->addTab(m_sweep, tr("Sweep"));
    m_configuration = new ConfigurationView;
    m_tabs->addTab(m_configuration, tr("Configuration"));
    m_log = new LogView;
    m_tabs->addTab(m_log, tr("Logs"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &ResultsView::updateHeadline);

}

// Where each version's bytes per key go: the view drawn as parts, not as bars.
void ResultsView::addWhyTab(ChartKind kind)
{
    m_why = new WhyView;
    m_whyKind = kind;
    connect(m_why, &WhyView::shownChanged, this, [this] {
        if (m_tabs->currentWidget() == m_why)
            updateHeadline();
    });
    m_tabs->addTab(m_why, figureView(kind).tabTitle);
}

void ResultsView::showOpenedBundle(const ResultsBundle &bundle)
{
    m_baselineId = bundle.baseline;
    m_hidden.clear();
    setBundle(bundle);
    // The box may not have been rebuilt (the same servers as before): set both outright.
    setBaseline(bundle.baseline);
    setHiddenVersions({});
}

void ResultsView::setBundle(const ResultsBundle &bundle)
{
    // The snapshot shown already (a run's last update, then its end): nothing new to show.
    if (&bundle == m_snapshot.get())
        return;
    setSnapshot(std::make_shared<const ResultsBundle>(bundle));
}

void ResultsView::setSnapshot(BundleSnapshot snapshot)
{
    if (!snapshot || snapshot == m_snapshot)
        return;
    m_snapshot = std::move(snapshot);
    updateControls();
    showFigures();
}

Figures::Options ResultsView::figureOptions() const
{
    Figures::Options options;
    options.baseline = baseline();
    options.hiddenServers = m_hidden;
    options.order = categoryOrder();
    return options;
}

// The view's options changed: the charts take them at once, shown or not, as the user chose them.
void ResultsView::showChosenFigures()
{
    showFigures();
    for (auto &entry : m_charts)
        entry.second->flush();
}

// The one Figures of this update, handed to every view.
void ResultsView::showFigures()
{
    m_figures = Figures(m_snapshot, figureOptions());
    for (auto &entry : m_charts)
        entry.second->setFigures(m_figures);
    m_model->setFigures(m_figures);
    m_table->setColumnHidden(ResultsTableModel::ReferenceRatioColumn, !m_model->hasReferenceRatio());
    m_encodings->setFigures(m_figures);
    m_sweep->setFigures(m_figures);
    m_configuration->setFigures(m_figures);
    m_why->setFigures(m_figures);
    updateHeadline();
}

ChartWidget *ResultsView::chart(ChartKind kind) const
{
    auto it = m_charts.find(kind);
    return it == m_charts.end() ? nullptr : it->second;
}

ChartKind ResultsView::currentChartKind() const
{
    if (auto *chart = qobject_cast<ChartWidget *>(m_tabs->currentWidget()))
        return chart->kind();
    if (m_tabs->currentWidget() == m_why)
        return m_whyKind;
    return ChartKind::MemoryPerAttribute;
}

CategoryOrder ResultsView::categoryOrder() const
{
    return CategoryOrder(m_order->currentData().toInt());
}

void ResultsView::showSweep()
{
    if (m_snapshot->isSweep())
        m_tabs->setCurrentWidget(m_sweep);
}

void ResultsView::showChart(ChartKind kind)
{
    if (ChartWidget *widget = chart(kind))
        m_tabs->setCurrentWidget(widget);
    else if (kind == m_whyKind)
        m_tabs->setCurrentWidget(m_why);
}

void ResultsView::showNextChart(int step)
{
    const std::vector<ChartKind> kinds = everyBundleChartKinds();
    const int count = int(kinds.size());
    const auto current = std::find(kinds.begin(), kinds.end(), currentChartKind());
    const bool onChart = qobject_cast<ChartWidget *>(m_tabs->currentWidget()) != nullptr;
    const int index = onChart ? int(current - kinds.begin()) : (step > 0 ? -1 : 0);
    showChart(kinds[size_t(((index + step) % count + count) % count)]);
}

void ResultsView::setChartFontSizes(const std::optional<ChartFontSizes> &sizes)
{
    for (auto &entry : m_charts) {
        entry.second->setFontSizes(sizes);
        entry.second->setFitCategoriesToLabels(sizes.has_value());
    }
    m_sweep->setFontSizes(sizes);
}

void ResultsView::setHeadlinePixelSizes(int headline, int subtitle)
{
    QFont headlineFont = m_headlineFont;
    if (headline > 0)
        headlineFont.setPixelSize(headline);
    m_headline->setFont(headlineFont);
    QFont subtitleFont = font();
    if (subtitle > 0)
        subtitleFont.setPixelSize(subtitle);
    m_subtitle->setFont(subtitleFont);
    m_footnotes->setFont(subtitleFont);
}

void ResultsView::setCalloutShown(bool shown)
{
    m_calloutShown = shown;
    updateHeadline();
}

void ResultsView::setCategoryOrder(CategoryOrder order)
{
    m_order->setCurrentIndex(m_order->findData(int(order)));
}

void ResultsView::setBaseline(const QString &serverId)
{
    m_baselineId = serverId;
    const int index = m_baseline->findData(serverId);
    if (index >= 0)
        m_baseline->setCurrentIndex(index);
    showChosenFigures();
    Q_EMIT viewChanged();
}

QString ResultsView::baseline() const
{
    return m_baseline->currentData().toString();
}

void ResultsView::setHiddenVersions(const QStringList &serverIds)
{
    m_hidden = serverIds;
    for (QAction *action : m_versionsMenu->actions())
        action->setChecked(!m_hidden.contains(action->data().toString()));
    applyHidden();
}

void ResultsView::applyHidden()
{
    updateVersionsButton();
    showChosenFigures();
    Q_EMIT viewChanged();
}

void ResultsView::updateVersionsButton()
{
    m_versions->setText(m_hidden.isEmpty() ? tr("Versions ▾") : tr("Versions (%1 hidden) ▾").arg(m_hidden.size()));
}

void ResultsView::setTheme(ColorTheme theme)
{
    m_theme = theme;
    for (auto &entry : m_charts)
        entry.second->setTheme(theme);
    m_sweep->setTheme(theme);
    m_why->setTheme(theme);
    Q_EMIT viewChanged();
}

ResultsViewState ResultsView::viewState() const
{
    ResultsViewState state;
    state.baseline = m_baselineId;
    state.hidden = m_hidden;
    state.order = categoryOrder();
    state.theme = m_theme;
    return state;
}

void ResultsView::setViewState(const ResultsViewState &state)
{
    setCategoryOrder(state.order);
    setTheme(state.theme);
    setBaseline(state.baseline);
    setHiddenVersions(state.hidden);
}

void ResultsView::flushCharts()
{
    for (auto &entry : m_charts)
        entry.second->flush();
    m_why->flush();
}

void ResultsView::updateControls()
{
    const ResultsBundle &bundle = *m_snapshot;
    const QStringList ids = orderedServerIds(bundle);
    if (ids == m_knownServers)
        return;
    m_knownServers = ids;
    const std::map<QString, QColor> colors = serverColors(bundle);
    m_baseline->clear();
    m_baseline->addItem(tr("Oldest version"), QString());
    m_versionsMenu->clear();
    for (const QString &id : ids) {
        const ServerRun *run = bundle.server(id);
        const QString name = serverDisplayName(bundle, *run);
        m_baseline->addItem(swatch(colors.at(id)), name, id);
        QAction *action = m_versionsMenu->addAction(swatch(colors.at(id)), name);
        action->setCheckable(true);
        action->setData(id);
        action->setChecked(!m_hidden.contains(id));
        connect(action, &QAction::toggled, this, [this, id](bool shown) {
            if (shown)
                m_hidden.removeAll(id);
            else if (!m_hidden.contains(id))
                m_hidden << id;
            applyHidden();
        });
    }
    const int index = m_baseline->findData(m_baselineId);
    m_baseline->setCurrentIndex(index < 0 ? 0 : index);
    m_hidden.erase(std::remove_if(m_hidden.begin(), m_hidden.end(), [&ids](const QString &id) { return !ids.contains(id); }),
                   m_hidden.end());
    updateVersionsButton();
    m_baseline->setEnabled(!ids.isEmpty());
    m_versions->setEnabled(!ids.isEmpty());
}

// The marks on the bars of the chart shown, explained; the table and other tabs have none.
void ResultsView::updateFootnotes()
{
    const auto *widget = qobject_cast<ChartWidget *>(m_tabs->currentWidget());
    QStringList lines;
    if (widget && hasResults()) {
        lines = widget->footnotes();
        if (widget->barSetCount() > 0 && !widget->barLabelsShown())
            lines << tr("Bar labels left out: the bars are too thin for them at this size. Hover a bar for its "
                        "figures, or show fewer versions.");
        // Under Why (time): what to read about the commands whose time changed.
        if (const QString candidates = releaseNotesSummary(m_figures).trimmed();
            currentChartKind() == ChartKind::WhyTime && !candidates.isEmpty())
            lines << tr("Release-note candidates (candidates, not causes):") << candidates;
    } else if (m_tabs->currentWidget() == m_table && hasResults()) {
        // The table's time figures marked "§": what limited their passes.
        lines << m_figures.bottleneckNote();
        lines.removeAll(QString());
    }
    m_footnotes->setText(lines.join(QLatin1Char('\n')));
    m_footnotes->setVisible(!m_footnotes->text().isEmpty());
}

void ResultsView::updateHeadline()
{
    updateFootnotes();
    if (!hasResults()) {
        m_callout->hide();
        m_headline->show();
        m_headline->setText(tr("No results yet"));
        m_subtitle->setText(tr("Choose servers and a workload, then press Run (Ctrl+R), or open a saved bundle (Ctrl+O)."));
        return;
    }
    if (m_tabs->currentWidget() == m_why) {
        // The Why tab's own title, and the build caveat beside it as every chart has it.
        m_callout->hide();
        m_headline->show();
        m_headline->setText(m_why->titleText());
        m_subtitle->setText(m_why->caveatText());
        return;
    }
    const ChartKind kind = currentChartKind();
    m_headline->setText(defaultChartTitle(m_figures, kind));
    const bool callout = m_calloutShown && m_callout->showHeadline(m_figures, kind);
    m_callout->setVisible(callout);
    m_headline->setVisible(!callout);
    QString subtitle = defaultChartSubtitle(m_figures, kind);
    if (!m_snapshot->complete) {
        // After what is measured, before the build caveat's line.
        const qsizetype end = subtitle.contains(QLatin1Char('\n')) ? subtitle.indexOf(QLatin1Char('\n')) : subtitle.size();
        subtitle.insert(end, (end == 0 ? QString() : QStringLiteral(" · ")) + tr("partial results"));
    }
    m_subtitle->setText(subtitle);
}

QString ResultsView::tableAsMarkdown() const
{
    return bundleToMarkdown(m_figures, m_figures.options().order);
}

QString ResultsView::tableAsCsv() const
{
    return bundleToCsv(m_figures, m_figures.options().order);
}

void ResultsView::copyMarkdown() const
{
    QApplication::clipboard()->setText(tableAsMarkdown());
}

void ResultsView::copyCsv() const
{
    QApplication::clipboard()->setText(tableAsCsv());
}
