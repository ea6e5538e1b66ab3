// A source tree beside the release of its version, in the window as a user sees them: the server
// list, the progress rows, the legend, the call-out and the table name the tree by its folder and
// content hash, never like the release, and measure it against the release. The tree is the 8.0.1
// tarball with a change of the test's own, built into the cache beside the upstream build of
// that tarball (scripts/test) and removed when the test ends.
#include "chartwidget.h"
#include "headlinecallout.h"
#include "mainwindow.h"
#include "progresslist.h"
#include "releasetree.h"
#include "resultsview.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverspanel.h"
#include "servertesthelpers.h"
#include "sourcebuilder.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTreeWidget>
#include <QtTest>
#include <memory>
#include <optional>

namespace {

constexpr int kRunTimeoutMs = 240000;

// The row of the server list that stands for `label`.
QTreeWidgetItem *rowOf(QTreeWidget *list, const QString &label)
{
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->toolTip(0).section(QLatin1Char('\n'), 0, 0) == label)
            return list->topLevelItem(i);
    }
    return nullptr;
}

} // namespace

class WindowTreesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowtrees"));
        QSettings().clear();
        const QString tarball = ServerTestHelpers::releaseTarball801();
        const std::optional<ServerSpec> release = ServerTestHelpers::findBuiltServer(QStringLiteral("valkey-8.0.1-upstream"));
        if (tarball.isEmpty() || !release)
            VERSUS_SERVER_MISSING(QStringLiteral("the valkey-8.0.1 tarball in %1/.sources and valkey-8.0.1-upstream beside it "
                                                 "(scripts/fetch-servers --upstream)")
                                      .arg(ServerTestHelpers::serverCacheDir()));
        m_release = release.value();
        // A tree of this test's own, built into the cache (on the objects of the version's last build) and
        // removed from it when the test ends: no tree another test leaves or removes.
        m_changedTree = std::make_unique<ServerTestHelpers::ReleaseTree>(tarball);
        QVERIFY(m_changedTree->valid());
        const Outcome<BuiltServer> built = SourceBuilder(ServerTestHelpers::serverCacheDir()).build(m_changedTree->path());
        QVERIFY2(built, qPrintable(built ? QString() : built.error()));
        m_changedTree->removeWithTree(built->label);
        ServerCatalog catalog;
        catalog.discover();
        for (const CatalogEntry &entry : catalog.entries()) {
            if (entry.usable() && entry.spec.label == built->label)
                m_tree = entry.spec;
        }
        QVERIFY2(m_tree.origin.isSourceTree(), qPrintable(built->label + QStringLiteral(" is not in the catalog as a usable source tree")));
        m_treeName = QStringLiteral("Valkey 8.0.1 (tree %1@%2)")
                         .arg(QFileInfo(m_tree.origin.source).fileName(), m_tree.origin.sourceSha256.left(8));
    }

    void theTreeIsNamedAndMeasuredAgainstTheRelease()
    {
        MainWindow window;
        window.show();
        ServersPanel *servers = window.serversPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!servers->isDiscovering(), 60000);
        auto *list = window.findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QVERIFY(list);
        QTreeWidgetItem *treeRow = rowOf(list, m_tree.label);
        QTreeWidgetItem *releaseRow = rowOf(list, m_release.label);
        QVERIFY(treeRow && releaseRow);
        QCOMPARE(treeRow->text(0), m_treeName);
        QCOMPARE(treeRow->text(1), QStringLiteral("source tree"));
        QCOMPARE(releaseRow->text(0), QStringLiteral("Valkey 8.0.1 (upstream build)"));
        QCOMPARE(releaseRow->text(1), QStringLiteral("upstream build"));

        // The tree ticked first, as `--servers src:PATH,valkey-8.0.1-upstream` gives it.
        for (const QString &label : servers->labels())
            servers->setChecked(label, label == m_tree.label || label == m_release.label);
        auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
        QVERIFY(kind);
        kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
        auto *keys = window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"));
        QVERIFY(keys);
        keys->setValue(2000);
        QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(WindowRun::clickRunOnceReady(window));
        QVERIFY(window.isRunning());
        QStringList progressNames;
        for (QLabel *label : window.findChild<ProgressList *>()->findChildren<QLabel *>())
            progressNames << label->text();
        QVERIFY2(progressNames.contains(m_treeName), qPrintable(progressNames.join(QStringLiteral(" | "))));
        QVERIFY2(progressNames.contains(QStringLiteral("Valkey 8.0.1 (upstream build)")), qPrintable(progressNames.join(QStringLiteral(" | "))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

        ResultsView *results = window.resultsView();
        results->flushCharts();
        ChartWidget *memory = results->chart(ChartKind::MemoryPerAttribute);
        QCOMPARE(memory->legendTexts(), QStringList({QStringLiteral("Valkey 8.0.1 (upstream build)"), m_treeName}));
        // The release is the baseline: every change is the tree's against it.
        QCOMPARE(results->figures().baselineId(), m_release.label);
        const QString table = results->tableAsMarkdown();
        QVERIFY2(table.contains(QStringLiteral("| Valkey 8.0.1 (upstream build) | %1 |").arg(m_treeName)), qPrintable(table));
    }

    void cleanupTestCase() { m_changedTree.reset(); }

private:
    std::unique_ptr<ServerTestHelpers::ReleaseTree> m_changedTree;
    ServerSpec m_tree;
    ServerSpec m_release;
    QString m_treeName;
};

QTEST_MAIN(WindowTreesTest)
#include "tst_windowtrees.moc"
#include "windowrun.h"
