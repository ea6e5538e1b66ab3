// The Help menu: the documentation shipped with the source (README.md and docs/*.md, found up
// from the program) and a list of the keys, read from the window's own actions and shortcuts so
// that it stays true when a key changes (demo mode moves Cancel to Shift+Esc).
#include "democontroller.h"
#include "helpmenu.h"
#include "mainwindow.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QSettings>
#include <QShortcut>
#include <QtTest>
#include <algorithm>

namespace {

QStringList texts(const QMenu *menu)
{
    QStringList shown;
    for (const QAction *action : menu->actions())
        shown << action->text();
    return shown;
}

// The window's keys found independently of the dialog: every action with a shortcut, and every
// QShortcut, sorted.
QList<std::pair<QString, QString>> keysOf(const QWidget *window)
{
    QList<std::pair<QString, QString>> keys;
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (!action->shortcut().isEmpty())
            keys.append({action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")),
                         action->shortcut().toString(QKeySequence::NativeText)});
    }
    for (const QShortcut *shortcut : window->findChildren<QShortcut *>())
        keys.append({shortcut->whatsThis(), shortcut->key().toString(QKeySequence::NativeText)});
    std::sort(keys.begin(), keys.end());
    return keys;
}

QList<std::pair<QString, QString>> shownKeys(MainWindow &window)
{
    auto *help = window.findChild<QMenu *>(QStringLiteral("helpMenu"));
    for (QAction *action : help->actions()) {
        if (action->text() == QStringLiteral("&Keyboard shortcuts…"))
            action->trigger();
    }
    auto *dialog = window.findChild<ShortcutsDialog *>(QStringLiteral("shortcutsDialog"));
    if (!dialog)
        return {};
    QList<std::pair<QString, QString>> rows = dialog->rows();
    dialog->close();
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace

class WindowHelpTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void helpMenuOpensTheDocumentation();
    void missingDocumentationIsSaid();
    void shortcutsAreTheWindowsOwn();
    void demoModeKeysAreListed();
};

void WindowHelpTest::init()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowhelp"));
    QSettings().clear();
}

void WindowHelpTest::helpMenuOpensTheDocumentation()
{
    MainWindow window;
    auto *help = window.findChild<QMenu *>(QStringLiteral("helpMenu"));
    QVERIFY(help);
    QCOMPARE(texts(help), QStringList({QStringLiteral("Read &me"), QStringLiteral("&Documentation"),
                                       QStringLiteral("&Keyboard shortcuts…"), QString(),
                                       QStringLiteral("&About Versus")}));
    auto *docs = window.findChild<QMenu *>(QStringLiteral("documentationMenu"));
    QVERIFY(docs);
    QCOMPARE(texts(docs), QStringList({QStringLiteral("Architecture"),
                                       QStringLiteral("Results bundle format (versus.results/1)"),
                                       QStringLiteral("Charts and export"), QStringLiteral("How Versus measures"),
                                       QStringLiteral("Performance"),
                                       QStringLiteral("Reliability: faults tried, faults survived, data lost"),
                                       QStringLiteral("Beyond one server: clusters and other machines"),
                                       QStringLiteral("The Versus window"), QStringLiteral("Workloads")}));
    // The test program sits in build/tests, two levels inside the source tree.
    const QDir source(QStringLiteral(VERSUS_FIXTURES "/../.."));
    QCOMPARE(docs->actions().first()->data().toString(), source.absoluteFilePath(QStringLiteral("docs/ARCHITECTURE.md")));
    QCOMPARE(HelpDocs::findRoot(QCoreApplication::applicationDirPath()), QDir::cleanPath(source.absolutePath()));
}

void WindowHelpTest::missingDocumentationIsSaid()
{
    const QString nowhere = QDir::tempPath() + QStringLiteral("/versus-no-docs/bin");
    QCOMPARE(HelpDocs::findRoot(nowhere), QString());
    QCOMPARE(HelpDocs::notFoundText(nowhere, true),
             QStringLiteral("The documentation (README.md and docs/) was not found: it ships with the source, "
                            "not with the program."));
    QVERIFY(HelpDocs::notFoundText(nowhere, false)
                .endsWith(QStringLiteral(" Looked in: %1, %2/versus-no-docs, %2, %3, %2/versus-no-docs/share/doc/versus.")
                              .arg(nowhere, QDir::tempPath(), QDir::cleanPath(QDir::tempPath() + QStringLiteral("/..")))));
    QMenu menu;
    bool hidden = false;
    HelpDocs::addEntries(&menu, nowhere, &hidden);
    QCOMPARE(texts(menu.actions().at(1)->menu()),
             QStringList({QStringLiteral("Not found beside the program or in its source tree")}));
}

void WindowHelpTest::shortcutsAreTheWindowsOwn()
{
    MainWindow window;
    const QList<std::pair<QString, QString>> rows = shownKeys(window);
    QCOMPARE(rows, keysOf(&window));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Open results"), QStringLiteral("Ctrl+O"))));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Panels"), QStringLiteral("F9"))));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Cancel"), QStringLiteral("Esc"))));
}

void WindowHelpTest::demoModeKeysAreListed()
{
    MainWindow window;
    auto *demo = new DemoController(&window);
    demo->start(DemoOptions{false, false, 0});
    const QList<std::pair<QString, QString>> rows = shownKeys(window);
    QCOMPARE(rows, keysOf(&window));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Cancel"), QStringLiteral("Shift+Esc"))));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Leave full screen"), QStringLiteral("Esc"))));
    QVERIFY(rows.contains(std::make_pair(QStringLiteral("Chart: Throughput"), QStringLiteral("4"))));
}

QTEST_MAIN(WindowHelpTest)
#include "tst_windowhelp.moc"
