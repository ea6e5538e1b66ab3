#include "helpmenu.h"

#include <QAction>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QShortcut>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <functional>

namespace {

// The file's first "# " heading without its Markdown marks, or its name.
QString headingOf(const QString &path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        const QString first = QString::fromUtf8(file.readLine()).trimmed();
        if (first.startsWith(QLatin1String("# ")))
            return first.mid(2).remove(QLatin1Char('`')).trimmed();
    }
    return QFileInfo(path).fileName();
}

void openDocument(QWidget *parent, const QString &path, const QString &programDir, const bool *pathsHidden)
{
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        QMessageBox::warning(parent, QObject::tr("Documentation not found"),
                             HelpDocs::notFoundText(programDir, pathsHidden && *pathsHidden));
        return;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        QMessageBox::warning(parent, QObject::tr("Cannot open the documentation"),
                             QObject::tr("No program opened %1.").arg(path));
}

QString withoutMnemonic(QString text)
{
    return text.replace(QLatin1String("&&"), QLatin1String("\x01")).remove(QLatin1Char('&'))
        .replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

} // namespace

QStringList HelpDocs::searchPlaces(const QString &programDir)
{
    QStringList places;
    QString dir = QDir::cleanPath(QDir(programDir).absolutePath());
    for (int up = 0; up < 4 && !places.contains(dir); ++up) {
        places << dir;
        dir = QDir::cleanPath(dir + QStringLiteral("/.."));
    }
    places << QDir::cleanPath(QDir(programDir).absolutePath() + QStringLiteral("/../share/doc/versus"));
    return places;
}

QString HelpDocs::findRoot(const QString &programDir)
{
    for (const QString &place : searchPlaces(programDir)) {
        if (QFileInfo::exists(place + QStringLiteral("/README.md")) && QFileInfo(place + QStringLiteral("/docs")).isDir())
            return place;
    }
    return QString();
}

QString HelpDocs::notFoundText(const QString &programDir, bool pathsHidden)
{
    const QString text = QObject::tr("The documentation (README.md and docs/) was not found: it ships with the "
                                     "source, not with the program.");
    if (pathsHidden)
        return text;
    return text + QStringLiteral(" ") + QObject::tr("Looked in: %1.").arg(searchPlaces(programDir).join(QStringLiteral(", ")));
}

void HelpDocs::addEntries(QMenu *help, const QString &programDir, const bool *pathsHidden)
{
    const QString root = findRoot(programDir);
    QWidget *parent = help->parentWidget();
    const QString readme = root.isEmpty() ? QString() : root + QStringLiteral("/README.md");
    help->addAction(QObject::tr("Read &me"), help,
                    [=] { openDocument(parent, readme, programDir, pathsHidden); });
    QMenu *docs = help->addMenu(QObject::tr("&Documentation"));
    docs->setObjectName(QStringLiteral("documentationMenu"));
    const QFileInfoList files = root.isEmpty() ? QFileInfoList()
        : QDir(root + QStringLiteral("/docs")).entryInfoList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    for (const QFileInfo &file : files) {
        const QString path = file.absoluteFilePath();
        QAction *entry = docs->addAction(headingOf(path), help,
                                         [=] { openDocument(parent, path, programDir, pathsHidden); });
        entry->setData(path);
    }
    if (files.isEmpty())
        docs->addAction(QObject::tr("Not found beside the program or in its source tree"))->setEnabled(false);
}

QList<std::pair<QString, QString>> windowShortcuts(const QWidget *window)
{
    QList<std::pair<QString, QString>> rows;
    QList<const QAction *> seen;
    std::function<void(const QList<QAction *> &)> collect = [&](const QList<QAction *> &actions) {
        for (const QAction *action : actions) {
            if (action->menu())
                collect(action->menu()->actions());
            if (seen.contains(action) || action->shortcut().isEmpty())
                continue;
            seen << action;
            rows.append({withoutMnemonic(action->text()).remove(QStringLiteral("…")),
                         action->shortcut().toString(QKeySequence::NativeText)});
        }
    };
    if (const auto *bar = window->findChild<QMenuBar *>(QString(), Qt::FindDirectChildrenOnly))
        collect(bar->actions());
    collect(window->actions());
    for (const QShortcut *shortcut : window->findChildren<QShortcut *>(QString(), Qt::FindDirectChildrenOnly)) {
        if (shortcut->isEnabled())
            rows.append({shortcut->whatsThis(), shortcut->key().toString(QKeySequence::NativeText)});
    }
    return rows;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window) : QDialog(window)
{
    setWindowTitle(tr("Keyboard shortcuts"));
    setObjectName(QStringLiteral("shortcutsDialog"));
    const QList<std::pair<QString, QString>> shortcuts = windowShortcuts(window);
    m_table = new QTableWidget(int(shortcuts.size()), 2, this);
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < shortcuts.size(); ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(shortcuts[row].first));
        m_table->setItem(row, 1, new QTableWidgetItem(shortcuts[row].second));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(420, 420);
}

QList<std::pair<QString, QString>> ShortcutsDialog::rows() const
{
    QList<std::pair<QString, QString>> shown;
    for (int row = 0; row < m_table->rowCount(); ++row)
        shown.append({m_table->item(row, 0)->text(), m_table->item(row, 1)->text()});
    return shown;
}
