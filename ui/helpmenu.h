#pragma once
// The Help menu's documentation (README.md and docs/*.md, shipped with the source) and the
// keyboard shortcuts dialog, which reads the keys from the window's own actions and shortcuts.

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>
#include <utility>

class QMenu;
class QTableWidget;
class QWidget;

namespace HelpDocs {
// Where README.md and docs/ are looked for: beside the program, then up from it (a build
// directory inside the source tree), then share/doc/versus beside its bin/.
QStringList searchPlaces(const QString &programDir);
// The first of those holding README.md, or empty.
QString findRoot(const QString &programDir);
// What the menu says when the documentation is not there, naming where it looked.
QString notFoundText(const QString &programDir, bool pathsHidden);
// Fills `help` with "Read me" and a "Documentation" submenu (one entry per docs/*.md, by its
// heading); each opens its file in the desktop's viewer.
void addEntries(QMenu *help, const QString &programDir, const bool *pathsHidden);
} // namespace HelpDocs

// Every key `window` answers to: its actions' (menus and submenus too) and its QShortcuts'
// (named by their What's This text), each as (what it does, keys), in menu order.
QList<std::pair<QString, QString>> windowShortcuts(const QWidget *window);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *window);
    // The rows shown, as (what it does, keys).
    QList<std::pair<QString, QString>> rows() const;

private:
    QTableWidget *m_table = nullptr;
};
