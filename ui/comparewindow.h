#pragma once
// Two results bundles side by side (e.g. the same versions on two machines): both are
// merged into one bundle whose server ids carry the bundle's name, and shown with the same
// charts, table and export as a run. It opens centred on its parent's screen, within the
// space the screen leaves free; Esc and Ctrl+W close it.

#include "resultsbundle.h"
#include <QWidget>

class ResultsView;

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    CompareWindow(const ResultsBundle &a, const QString &nameA, const ResultsBundle &b, const QString &nameB,
                  QWidget *parent = nullptr);
    // Asks for two bundle files; null when the user cancels or a file cannot be read
    // (the reason is shown in a message box).
    static CompareWindow *openFromFiles(QWidget *parent);
    ResultsView *resultsView() const { return m_results; }

private:
    void placeOnScreen(QWidget *parent);

    ResultsBundle m_merged;
    ResultsView *m_results = nullptr;
};
