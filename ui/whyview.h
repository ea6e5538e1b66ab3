#pragma once
// The Why tab: where each version's bytes per key go, from the server's own accounting. A choice
// of category (All attributes and each type, as the memory chart has them), the Why chart, the
// figures layer's sentences, the live allocations per key by size class, and what a server did
// not report. Every figure is the figures layer's (Figures::explainMemory()); this view formats.

#include "charttheme.h"
#include "figures.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;
class WhyChartWidget;
struct MemoryExplanation;

class WhyView : public QWidget {
    Q_OBJECT
public:
    explicit WhyView(QWidget *parent = nullptr);

    // The figures as shown (baseline chosen, hidden versions left out), shared. Coalesced: shown
    // on the next turn of the event loop, or when the tab is next shown.
    void setFigures(const Figures &figures);
    void setTheme(ColorTheme theme);
    // Applies pending results now (tests, screenshots).
    void flush();

    // What is on screen, for the window's headline and for tests.
    QString categoryId() const;            // "all", a type
    void setCategoryId(const QString &id);
    QStringList categoryLabels() const;
    QString titleText() const;             // "Where each key's bytes go — All attributes"
    QString caveatText() const;            // the build caveat, or empty
    QString sentencesText() const;
    QString unavailableText() const;
    QString emptyText() const;             // no bars: why; empty when the chart has bars
    const WhyChartWidget *chartWidget() const { return m_chart; }
    const QTableWidget *allocationsTable() const { return m_allocations; }

Q_SIGNALS:
    // The category or the results changed: the window's headline follows.
    void shownChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void scheduleRefresh();
    void refresh();
    void fillCategories(const Figures &figures);
    void fillAllocations(const Figures &figures, const MemoryExplanation &explanation);

    Figures m_figures{BundleSnapshot()};
    bool m_pending = false;
    bool m_posted = false;
    QString m_chosen;   // the user's category, kept while results update
    QString m_title;
    QString m_caveat;
    QComboBox *m_category = nullptr;
    WhyChartWidget *m_chart = nullptr;
    QLabel *m_empty = nullptr;
    QLabel *m_sentences = nullptr;
    QTableWidget *m_allocations = nullptr;
    QLabel *m_unavailable = nullptr;
};
