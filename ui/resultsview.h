#pragma once
// The results: one tab per chart (live while a run goes on), the Why tab, the results table, the
// encodings breakdown and the per-server logs, with the view controls above them
// (baseline, shown versions, category order, copy as Markdown or CSV).

#include "categoryorder.h"
#include "figureviews.h"
#include "charttheme.h"
#include "figures.h"
#include "resultsbundle.h"
#include "uisettings.h"
#include <QFont>
#include <QWidget>
#include <map>
#include <optional>

class ChartWidget;
class ConfigurationView;
class EncodingsView;
class HeadlineCallout;
class LogView;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class SweepChartWidget;
class WhyView;
class QTableView;
class QToolButton;
class ResultsTableModel;

class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);

    // Results that replace or update the ones shown (a run's, live): the chosen baseline and
    // hidden versions stay, for the servers these results have. Each update builds one
    // Figures, and every tab, the headline and Copy read that one.
    void setSnapshot(BundleSnapshot snapshot);
    // The same for a bundle of its own (copied once into a snapshot); the snapshot shown
    // already is not shown again.
    void setBundle(const ResultsBundle &bundle);
    // Results opened from a file: its own baseline (the oldest version when it has none) and
    // every version shown, whatever the results before it had.
    void showOpenedBundle(const ResultsBundle &bundle);
    const ResultsBundle &bundle() const { return *m_snapshot; }
    const BundleSnapshot &snapshot() const { return m_snapshot; }
    // What every tab shows: the snapshot with the baseline, hidden versions and order chosen.
    const Figures &figures() const { return m_figures; }
    bool hasResults() const { return !m_snapshot->servers.empty(); }

    // The bar chart of `kind`; none for the view drawn as parts (whyView()).
    ChartWidget *chart(ChartKind kind) const;
    // The view in front: a chart's or the Why tab's; the memory chart on any other tab.
    ChartKind currentChartKind() const;
    // Brings a view's tab to the front; showNextChart() steps through the bar chart tabs every
    // bundle has (from the table or another tab it starts at the first chart).
    void showChart(ChartKind kind);
    // The Sweep tab (a sweep's bundle only).
    void showSweep();
    void showNextChart(int step = 1);
    CategoryOrder categoryOrder() const;   // the Sort box
    void setCategoryOrder(CategoryOrder order);
    LogView *logView() const { return m_log; }
    SweepChartWidget *sweepView() const { return m_sweep; }
    WhyView *whyView() const { return m_why; }
    ResultsTableModel *tableModel() const { return m_model; }

    void setBaseline(const QString &serverId);
    QString baseline() const;
    void setHiddenVersions(const QStringList &serverIds);
    QStringList hiddenVersions() const { return m_hidden; }
    void setTheme(ColorTheme theme);
    ColorTheme theme() const { return m_theme; }
    void flushCharts();

    // Demo mode on a big screen: fixed chart font sizes (charts show as many categories as
    // have room for their labels), and the headline and subtitle in these pixel sizes
    // (0: the window's own).
    void setChartFontSizes(const std::optional<ChartFontSizes> &sizes);
    void setHeadlinePixelSizes(int headline, int subtitle);
    // The big-number call-out instead of the headline, for charts that have a headline change.
    void setCalloutShown(bool shown);
    bool calloutShown() const { return m_calloutShown; }
    HeadlineCallout *callout() const { return m_callout; }
    // Baseline, hidden versions, sort and theme, as the window remembers them. A baseline or
    // hidden version the results do not have waits for results that have it.
    ResultsViewState viewState() const;
    void setViewState(const ResultsViewState &state);

    // The shown versions, with the categories in the Sort box's order.
    QString tableAsMarkdown() const;
    QString tableAsCsv() const;
    void copyMarkdown() const;
    void copyCsv() const;

Q_SIGNALS:
    // The baseline, the hidden versions, the sort or the theme changed.
    void viewChanged();

private:
    QHBoxLayout *buildControls();
    void buildTabs();
    void addWhyTab(ChartKind kind);
    void updateControls();
    void updateHeadline();
    void updateFootnotes();
    void applyHidden();
    Figures::Options figureOptions() const;
    void showFigures();
    void showChosenFigures();
    void updateVersionsButton();

    BundleSnapshot m_snapshot = std::make_shared<const ResultsBundle>();
    Figures m_figures{m_snapshot};
    QString m_baselineId;   // chosen; shown in the box when the results have it
    QStringList m_hidden;
    ColorTheme m_theme = ColorTheme::Light;
    QStringList m_knownServers;
    QLabel *m_headline = nullptr;
    QFont m_headlineFont;
    HeadlineCallout *m_callout = nullptr;
    bool m_calloutShown = false;
    QLabel *m_subtitle = nullptr;
    QLabel *m_footnotes = nullptr;   // the current chart's, under the tabs
    QComboBox *m_baseline = nullptr;
    QToolButton *m_versions = nullptr;
    QMenu *m_versionsMenu = nullptr;
    QComboBox *m_order = nullptr;
    QTabWidget *m_tabs = nullptr;
    std::map<ChartKind, ChartWidget *> m_charts;
    ResultsTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    EncodingsView *m_encodings = nullptr;
    SweepChartWidget *m_sweep = nullptr;
    WhyView *m_why = nullptr;
    ChartKind m_whyKind = ChartKind::WhyMemory;   // the row the Why tab shows
    ConfigurationView *m_configuration = nullptr;
    LogView *m_log = nullptr;
};
