#pragma once
// The results: one tab per chart (live while a run goes on), the results table, the
// encodings breakdown and the per-server logs, with the view controls above them
// (baseline, shown versions, category order, copy as Markdown or CSV).

#include "categoryorder.h"
#include "chartkind.h"
#include "charttheme.h"
#include "resultsbundle.h"
#include <QWidget>
#include <map>

class ChartWidget;
class EncodingsView;
class LogView;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolButton;
class ResultsTableModel;

class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);

    void setBundle(const ResultsBundle &bundle);
    const ResultsBundle &bundle() const { return m_bundle; }
    bool hasResults() const { return !m_bundle.servers.empty(); }
    // The bundle as the user sees it: chosen baseline, hidden versions left out.
    ResultsBundle shownBundle() const;
    // Every version, with the chosen baseline: for exports, which hide versions through
    // ExportOptions::hiddenServers so the others keep their colours.
    ResultsBundle bundleWithBaseline() const;

    ChartWidget *chart(ChartKind kind) const;
    ChartKind currentChartKind() const;
    CategoryOrder categoryOrder() const;   // the Sort box
    LogView *logView() const { return m_log; }
    ResultsTableModel *tableModel() const { return m_model; }

    void setBaseline(const QString &serverId);
    QString baseline() const;
    void setHiddenVersions(const QStringList &serverIds);
    QStringList hiddenVersions() const { return m_hidden; }
    void setTheme(ColorTheme theme);
    void flushCharts();

    QString tableAsMarkdown() const;
    QString tableAsCsv() const;
    void copyMarkdown() const;
    void copyCsv() const;

private:
    QHBoxLayout *buildControls();
    void buildTabs();
    void updateControls();
    void updateHeadline();
    void updateFootnotes();
    void applyHidden();

    ResultsBundle m_bundle;
    QStringList m_hidden;
    QStringList m_knownServers;
    QLabel *m_headline = nullptr;
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
    LogView *m_log = nullptr;
};
