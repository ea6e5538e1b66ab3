#pragma once
// The left column of the window: titled sections (Servers, Workload, Run) stacked with
// consistent spacing, so the eye reads it top to bottom in the order of the work.

#include <QWidget>

class QVBoxLayout;

class Sidebar : public QWidget {
    Q_OBJECT
public:
    explicit Sidebar(QWidget *parent = nullptr);
    void addSection(const QString &title, QWidget *content, int stretch = 0);
    void addStretch();

private:
    QVBoxLayout *m_layout = nullptr;
};
