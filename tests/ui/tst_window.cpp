// The window driven through its controls, against real servers from the per-user cache.
#include "fixturebundle.h"
#include "bundlefiles.h"
#include "chartexporter.h"
#include "bundlejson.h"
#include "bundlemerge.h"
#include "chartwidget.h"
#include "exportdialog.h"
#include "logview.h"
#include "mainwindow.h"
#include "presentation.h"
#include "progresslist.h"
#include "redisconnection.h"
#include "resultstablemodel.h"
#include "resultsview.h"
#include "runcoordinator.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverprocess.h"
#include "serverspanel.h"
#include "windowrun.h"
#include "workloadpanel.h"
#include "servertesthelpers.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QImage>
#include <QPushButton>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

namespace {

constexpr int runTimeoutMs = 240000;



} // namespace

class WindowTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void runsHashTtlOnTwoServers();
    void cancelMidRunLeavesNoServer();
    void cancelAtTenRandomMoments();
    void endpointIsNotFlushedWithoutConsent();
    void rejectsANonServerBinaryInline();
    void exportDialogWritesTheChosenSize_data();
    void exportDialogWritesTheChosenSize();
    void resultsTableSortsNumerically();
    void resultsTableGivesTheChangeRepeatByRepeat();
    void chartWidgetHidesVersionsAndSortsCategories();
    void exportLeavesHiddenVersionsOutAndKeepsColours();
    void comparingTwoBundlesShowsBothMachines();
    void savedResultsKeepTheChosenBaseline();

private:
    // Selects exactly the two servers under test and hash-ttl with `keys` keys, through the controls.
    void prepare(MainWindow &window, int keys);

    QString m_old;   // valkey-8.1.1
    QString m_new;   // valkey-9.1.x
    ServerSpec m_newSpec;
};

void WindowTest::initTestCase()
{
    // Settings of their own, so the tests neither read nor change the user's.
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_window"));

    ServerCatalog catalog;
    catalog.discover();
    for (const CatalogEntry &entry : catalog.entries()) {
        if (!entry.usable())
            continue;
        if (entry.spec.label == QLatin1String("valkey-8.1.1"))
            m_old = entry.spec.label;
        // Debian's package: an upstream build of the same version is named "(upstream build)".
        if (entry.spec.label.startsWith(QLatin1String("valkey-9.1.")) && entry.spec.origin.kind == BuildKind::DebianPackage) {
            m_new = entry.spec.label;
            m_newSpec = entry.spec;
        }
    }
    if (m_old.isEmpty() || m_new.isEmpty()) {
        const QString missing = QStringLiteral("valkey-8.1.1 and valkey-9.1.x are needed in %1 (scripts/fetch-servers)")
                                    .arg(ServerCatalog::defaultCacheDir());
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL(qPrintable(missing));
        QSKIP(qPrintable(missing));
    }
}

void WindowTest::init()
{
    QSettings().clear();
}

void WindowTest::prepare(MainWindow &window, int keys)
{
    ServersPanel *servers = window.serversPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!servers->isDiscovering(), 60000);
    for (const QString &label : servers->labels())
        servers->setChecked(label, label == m_old || label == m_new);
    QCOMPARE(int(servers->selectedServers().size()), 2);

    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    auto *keysBox = window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"));
    QVERIFY(keysBox);
    keysBox->setValue(keys);
    QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);
    QCOMPARE(window.workloadPanel()->workload()->describe().name, QStringLiteral("hash-ttl"));
    QCOMPARE(window.workloadPanel()->workload()->describe().events, (long long)keys);
    QVERIFY(window.runPanel()->runButton()->isEnabled());
}

void WindowTest::runsHashTtlOnTwoServers()
{
    MainWindow window;
    window.show();
    prepare(window, 2000);
    if (QTest::currentTestFailed())
        return;

    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy chartUpdates(window.resultsView()->chart(ChartKind::MemoryPerAttribute), &ChartWidget::applied);
    QVERIFY(WindowRun::clickRunOnceReady(window));
    QVERIFY(window.isRunning());
    QVERIFY(!window.runPanel()->runButton()->isEnabled());
    QVERIFY(window.runPanel()->cancelButton()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, runTimeoutMs);

    const ResultsBundle results = finished.first().first().value<ResultsBundle>();
    QVERIFY(results.complete);
    QCOMPARE(int(results.servers.size()), 2);
    for (const QString &label : {m_old, m_new}) {
        QCOMPARE(window.progressList()->percent(label), 100);
        QCOMPARE(window.progressList()->state(label), ProgressState::Done);
        QCOMPARE(window.serversPanel()->stateText(label), QStringLiteral("done"));
        // The workload's own 2,000 events, as the workload panel says, not 6,000 over three passes.
        QCOMPARE(window.progressList()->rate(label), QStringLiteral("2,000 events × 3 passes"));
    }
    // The platform appends " — Versus" itself.
    QCOMPARE(window.windowTitle(), QStringLiteral("hash-ttl"));
    // 8.1 has no HSETEX: said in its row, not as a dialog.
    QVERIFY2(window.progressList()->message(m_old).contains(QLatin1String("hsetex unsupported")),
             qPrintable(window.progressList()->message(m_old)));
    QVERIFY(!window.progressList()->message(m_new).contains(QLatin1String("unsupported")));

    // One bar set per server; one category per hash-ttl pattern (no overall figure over
    // different sets of patterns).
    ChartWidget *memory = window.resultsView()->chart(ChartKind::MemoryPerAttribute);
    memory->flush();
    // The chart followed the run (the first server's figures arrived before the second's),
    // not only its end.
    QVERIFY2(chartUpdates.count() >= 2, qPrintable(QString::number(chartUpdates.count())));
    QCOMPARE(memory->barSetCount(), 2);
    QCOMPARE(memory->categoryCount(), int(results.workload.types.size()));
    QCOMPARE(memory->seriesNames(), QStringList({QStringLiteral("Valkey 8.1.1"),
                                                 QStringLiteral("Valkey ") + m_new.mid(int(strlen("valkey-")))}));
    const int setEx = memory->categories().indexOf(QStringLiteral("set-ex"));
    QVERIFY(setEx >= 0);
    QVERIFY(memory->barValue(0, setEx) > 0);
    QVERIFY(memory->barValue(1, setEx) > 0);
    QVERIFY(memory->toolTipFor(1, setEx).contains(QLatin1String("Valkey 8.1.1")));   // change against the baseline
    // The figure as the bar label shows it (one decimal), not "175.33013".
    QVERIFY2(memory->toolTipFor(0, setEx).contains(formatFigure(memory->barValue(0, setEx)) + QLatin1Char(' ')),
             qPrintable(memory->toolTipFor(0, setEx)));
    QVERIFY2(!memory->toolTipFor(0, setEx).contains(QString::number(memory->barValue(0, setEx), 'g', 8)) ||
                 formatFigure(memory->barValue(0, setEx)) == QString::number(memory->barValue(0, setEx), 'g', 8),
             qPrintable(memory->toolTipFor(0, setEx)));
    ChartWidget *commands = window.resultsView()->chart(ChartKind::UsecPerCommand);
    commands->flush();
    QCOMPARE(commands->barSetCount(), 2);
    QVERIFY(commands->categoryCount() >= 2);

    QCOMPARE(window.resultsView()->tableModel()->rowCount(), 2);
    QVERIFY(window.resultsView()->tableAsMarkdown().contains(QLatin1String("8.1.1")));
    QVERIFY(!window.resultsView()->logView()->lines(m_new).isEmpty());
}

void WindowTest::cancelMidRunLeavesNoServer()
{
    MainWindow window;
    window.show();
    prepare(window, 400000);
    if (QTest::currentTestFailed())
        return;

    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(WindowRun::clickRunOnceReady(window));
    // Mid-run: the servers are up and the first one is replaying.
    QTRY_VERIFY_WITH_TIMEOUT(window.progressList()->percent(m_old) > 0 || window.progressList()->percent(m_new) > 0,
                             runTimeoutMs);
    QList<qint64> pids;
    const QRegularExpression pidPattern(QStringLiteral("\\(pid (\\d+)\\)"));
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        pids.clear();
        for (const QString &label : {m_old, m_new})
            for (const QString &line : window.resultsView()->logView()->lines(label)) {
                const QRegularExpressionMatch match = pidPattern.match(line);
                if (match.hasMatch())
                    pids << match.captured(1).toLongLong();
            }
        return pids.size() == 2;
    }(), 60000);
    for (qint64 pid : pids)
        QVERIFY(ServerTestHelpers::processAlive(pid));

    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const ResultsBundle results = finished.first().first().value<ResultsBundle>();
    QVERIFY(!results.complete);
    QVERIFY(!window.isRunning());
    // Enabled once the window is ready (WindowRun::clickRunOnceReady() says what it may wait for).
    QTRY_VERIFY2_WITH_TIMEOUT(window.runPanel()->runButton()->isEnabled(), qPrintable(window.runBlocker()), 30000);
    for (qint64 pid : pids)
        QTRY_VERIFY2_WITH_TIMEOUT(!ServerTestHelpers::processAlive(pid), qPrintable(QStringLiteral("server pid %1 still runs").arg(pid)), 10000);
}

// Ten runs in one window, each cancelled at a random point of its progress, alternately with Esc
// and the Cancel button: the first while its servers start, the others once the furthest server
// has replayed a random 1 to 50% of its events. A moment drawn in time instead (up to half of an
// earlier run's length) came after the end when the machine sped up between the runs: a run took
// 16 s beside a source build and under 8 s once it ended. Every server the window starts is
// launched under a private TMPDIR, so any survivor is found by its command line whether or not
// its pid reached the log. VERSUS_CANCEL_SEED repeats a failing sequence. 12,000 keys give a
// run whose first half spans the servers' start and several passes.
void WindowTest::cancelAtTenRandomMoments()
{
    QTemporaryDir serverDirs;
    QVERIFY(serverDirs.isValid());
    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", serverDirs.path().toLocal8Bit());
    const auto restoreTmp = qScopeGuard([&] {
        if (oldTmp.isEmpty())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", oldTmp);
    });

    MainWindow window;
    window.show();
    prepare(window, 12000);
    if (QTest::currentTestFailed())
        return;
    QSignalSpy finished(&window, &MainWindow::runFinished);

    // A full run first: the cancels follow one that ran to its end.
    QVERIFY(WindowRun::clickRunOnceReady(window));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, runTimeoutMs);
    QVERIFY(finished.takeFirst().first().value<ResultsBundle>().complete);

    const quint32 seed = qEnvironmentVariableIsSet("VERSUS_CANCEL_SEED")
        ? quint32(qEnvironmentVariableIntValue("VERSUS_CANCEL_SEED"))
        : QRandomGenerator::global()->generate();
    QRandomGenerator random(seed);
    qInfo("cancel seed %u", seed);
    const ProgressList *progress = window.progressList();
    for (int round = 0; round < 10; ++round) {
        const int atPercent = round == 0 ? 0 : 1 + int(random.bounded(50u));
        const bool withEscape = round % 2 == 0;
        const QString what = QStringLiteral("round %1, seed %2, cancelled at %3% with %4")
                                 .arg(round + 1).arg(seed).arg(atPercent)
                                 .arg(withEscape ? QStringLiteral("Esc") : QStringLiteral("the Cancel button"));
        QVERIFY(WindowRun::clickRunOnceReady(window));
        QVERIFY2(window.isRunning(), qPrintable(what));
        QElapsedTimer clock;
        clock.start();
        // The rows this run shows, not the last run's (Done or Cancelled, until the start reaches the window).
        const auto reached = [&] {
            for (const QString &id : {m_old, m_new})
                if (progress->state(id) == ProgressState::Done || progress->state(id) == ProgressState::Cancelled)
                    return false;
            return std::max(progress->percent(m_old), progress->percent(m_new)) >= atPercent;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(reached() || !finished.isEmpty(), qPrintable(what + QStringLiteral(": the run got no further")),
                                  runTimeoutMs);
        QVERIFY2(finished.isEmpty(), qPrintable(what + QStringLiteral(": the run ended before the cancel")));
        qInfo("%s, %lld ms in; servers were: %s, %s", qPrintable(what), clock.elapsed(), qPrintable(progressStateName(progress->state(m_old))),
              qPrintable(progressStateName(progress->state(m_new))));
        if (withEscape)
            QTest::keyClick(&window, Qt::Key_Escape);
        else
            QTest::mouseClick(window.runPanel()->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == 1, qPrintable(what + QStringLiteral(": no end within 30 s")),
                                  30000);

        const ResultsBundle results = finished.takeFirst().first().value<ResultsBundle>();
        QVERIFY2(!results.complete, qPrintable(what));
        QCOMPARE(int(results.servers.size()), 2);
        for (const ServerRun &server : results.servers) {
            QVERIFY2(server.status == RunStatus::Incomplete,
                     qPrintable(what + QStringLiteral(": %1 is %2").arg(server.id, runStatusName(server.status))));
            QCOMPARE(window.progressList()->state(server.id), ProgressState::Cancelled);
        }
        QVERIFY(!window.isRunning());
        QTRY_VERIFY2_WITH_TIMEOUT(window.runPanel()->runButton()->isEnabled(),
                                  qPrintable(what + QStringLiteral(": ") + window.runBlocker()), 30000);
        QVERIFY(!window.runPanel()->cancelButton()->isEnabled());
        QTRY_VERIFY2_WITH_TIMEOUT(ServerTestHelpers::pidsMentioning(serverDirs.path()).empty(),
                                  qPrintable(what + QStringLiteral(": a server outlived the cancel")), 10000);
    }
    // And the window still runs to the end afterwards.
    QVERIFY(WindowRun::clickRunOnceReady(window));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, runTimeoutMs);
    QVERIFY(finished.first().first().value<ResultsBundle>().complete);
    QTRY_VERIFY_WITH_TIMEOUT(ServerTestHelpers::pidsMentioning(serverDirs.path()).empty(), 10000);
}

void WindowTest::endpointIsNotFlushedWithoutConsent()
{
    // A server Versus does not launch, holding data that must survive.
    ServerProcess endpoint(m_newSpec);
    Status started = endpoint.start();
    QVERIFY2(started, qPrintable(started.error()));
    {
        RedisConnection connection;
        QVERIFY(endpoint.connect(connection, ServerTestHelpers::kHealthyReplyMs));
        QVERIFY(connection.command({"SET", "precious", "data"}));
        QVERIFY(connection.command({"SET", "precious:2", "data"}));
    }

    MainWindow window;
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
    const QString hostPort = QStringLiteral("127.0.0.1:%1").arg(endpoint.port());
    QCOMPARE(window.serversPanel()->addEndpoint(hostPort, endpoint.controlCredentials().password), QString());
    const std::vector<ServerSpec> all = window.serversPanel()->selectedServers();
    QString endpointLabel;
    for (const ServerSpec &spec : all)
        if (spec.isEndpoint)
            endpointLabel = spec.label;
    QVERIFY(!endpointLabel.isEmpty());
    for (const QString &label : window.serversPanel()->labels())
        window.serversPanel()->setChecked(label, label == endpointLabel);
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(100);
    QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);

    std::vector<EndpointSize> asked;
    window.coordinator()->setConsentHandler([&asked](const std::vector<EndpointSize> &sizes) {
        asked = sizes;
        return FlushDecision::Refuse;
    });
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, runTimeoutMs);
    QCOMPARE(int(asked.size()), 1);
    QCOMPARE(asked[0].keys, 2LL);
    QCOMPARE(asked[0].where, hostPort);
    const ResultsBundle results = finished.first().first().value<ResultsBundle>();
    QCOMPARE(int(results.servers.size()), 1);
    QCOMPARE(results.servers[0].status, RunStatus::Failed);
    QVERIFY2(results.servers[0].error.contains(QLatin1String("refusing to flush")), qPrintable(results.servers[0].error));

    RedisConnection connection;
    QVERIFY(endpoint.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    Outcome<Reply> size = connection.command({"DBSIZE"});
    QVERIFY(size);
    QCOMPARE(size->integer, 2LL);
    endpoint.stop();
}

void WindowTest::rejectsANonServerBinaryInline()
{
    MainWindow window;
    QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
    const int before = window.serversPanel()->labels().size();
    window.serversPanel()->addBinary(QStringLiteral("/bin/true"));
    QTRY_VERIFY_WITH_TIMEOUT(window.serversPanel()->inlineMessage().startsWith(QLatin1String("Not added")), 30000);
    QVERIFY(window.serversPanel()->inlineMessage().contains(QLatin1String("/bin/true")));
    QCOMPARE(window.serversPanel()->labels().size(), before);
}

void WindowTest::exportDialogWritesTheChosenSize_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QSize>("customSize");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QSize>("expected");
    QTest::newRow("blog") << "blog" << QSize() << 1.0 << "png" << QSize(1200, 675);
    QTest::newRow("social 2x") << "social" << QSize() << 2.0 << "png" << QSize(2400, 1260);
    QTest::newRow("slide") << "slide" << QSize() << 1.0 << "png" << QSize(1920, 1080);
    QTest::newRow("a4") << "a4" << QSize() << 1.0 << "png" << QSize(3508, 2480);
    QTest::newRow("custom 3x") << "custom" << QSize(640, 400) << 3.0 << "png" << QSize(1920, 1200);
    QTest::newRow("svg") << "blog" << QSize() << 1.0 << "svg" << QSize();
}

void WindowTest::exportDialogWritesTheChosenSize()
{
    QFETCH(QString, preset);
    QFETCH(QSize, customSize);
    QFETCH(double, scale);
    QFETCH(QString, format);
    QFETCH(QSize, expected);

    QTemporaryDir folder;
    ExportDialog dialog(Figures(fixtureBundle("hash-ttl-3-versions.json")), ChartKind::MemoryPerAttribute);
    dialog.setPreset(preset);
    if (customSize.isValid())
        dialog.setCustomSize(customSize);
    dialog.setScale(scale);
    dialog.setFormat(format == QLatin1String("svg") ? ImageFormat::Svg : ImageFormat::Png);
    dialog.setFolder(folder.path());
    QVERIFY(!dialog.previewImage().isNull());

    auto *exportButton = dialog.findChild<QPushButton *>(QStringLiteral("exportButton"));
    QVERIFY(exportButton);
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QCOMPARE(dialog.errorText(), QString());
    const QString path = folder.filePath(QStringLiteral("memory-per-attribute.") + format);
    QCOMPARE(dialog.outputPath(), path);
    QVERIFY(QFileInfo::exists(path));
    if (expected.isValid()) {
        const QImage image(path);
        QCOMPARE(image.size(), expected);
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("<svg"));
    }
}

void WindowTest::resultsTableSortsNumerically()
{
    ResultsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    model.setFigures(Figures(bundle));
    QCOMPARE(model.rowCount(), int(bundle.servers.size()));
    model.setFigures(Figures(bundle));   // a live update keeps the rows

    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ResultsTableModel::SortRole);
    proxy.sort(ResultsTableModel::BytesPerKeyColumn, Qt::AscendingOrder);
    double previous = -1;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const double value = proxy.index(row, ResultsTableModel::BytesPerKeyColumn).data(ResultsTableModel::SortRole).toDouble();
        QVERIFY(value >= previous);
        previous = value;
    }
    QCOMPARE(model.index(0, ResultsTableModel::BytesChangeColumn).data().toString(), QStringLiteral("baseline"));
}

// The fixture's repeats run 2.5% slower and 3% faster for every version at once while each
// version keeps its speed relative to 8.0.1: the change repeat by repeat is exact.
void WindowTest::resultsTableGivesTheChangeRepeatByRepeat()
{
    ResultsTableModel model;
    const auto bundle = std::make_shared<const ResultsBundle>(fixtureBundle("ecommerce-4-versions.json"));
    model.setFigures(Figures(bundle));
    const auto tip = [&](int row) { return model.index(row, ResultsTableModel::UsecChangeColumn).data(Qt::ToolTipRole); };
    QCOMPARE(model.index(0, ResultsTableModel::ServerColumn).data().toString(), QStringLiteral("Valkey 8.0.1"));
    QVERIFY(!tip(0).isValid());   // the baseline
    QCOMPARE(model.index(2, ResultsTableModel::ServerColumn).data().toString(), QStringLiteral("Valkey 9.1.2"));
    QCOMPARE(tip(2).toString(),
             QStringLiteral("Against Valkey 8.0.1, repeat by repeat: \u221226.7% to \u221226.7% (lowest to highest of 3 repeats)"));
    QCOMPARE(tip(1).toString(),
             QStringLiteral("Against Valkey 8.0.1, repeat by repeat: \u221212.1% to \u221212.1% (lowest to highest of 3 repeats)"));

    Figures::Options against91;
    against91.baseline = QStringLiteral("valkey-9.1.2");
    model.setFigures(Figures(bundle, against91));
    QVERIFY(!tip(2).isValid());
    QCOMPARE(tip(0).toString(),
             QStringLiteral("Against Valkey 9.1.2, repeat by repeat: +36.4% to +36.4% (lowest to highest of 3 repeats)"));
}

void WindowTest::chartWidgetHidesVersionsAndSortsCategories()
{
    ChartWidget chart(ChartKind::MemoryPerAttribute);
    const auto bundle = std::make_shared<const ResultsBundle>(fixtureBundle("ecommerce-4-versions.json"));
    chart.setFigures(Figures(bundle));
    chart.flush();
    QCOMPARE(chart.barSetCount(), 4);
    const int categories = chart.categoryCount();
    QVERIFY(categories > 2);
    QCOMPARE(chart.categories().first(), QStringLiteral("All attributes"));

    Figures::Options options;
    options.hiddenServers = {QStringLiteral("valkey-8.0.1")};
    chart.setFigures(Figures(bundle, options));
    chart.flush();
    QCOMPARE(chart.barSetCount(), 3);
    QVERIFY(!chart.seriesNames().contains(QStringLiteral("Valkey 8.0.1")));

    options.order = CategoryOrder::Name;
    chart.setFigures(Figures(bundle, options));
    chart.flush();
    QStringList rest = chart.categories().mid(1);
    QStringList sorted = rest;
    std::sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) {
        return a.compare(b, Qt::CaseInsensitive) < 0;
    });
    QCOMPARE(rest, sorted);
    QCOMPARE(chart.categories().first(), QStringLiteral("All attributes"));
    QCOMPARE(chart.categoryCount(), categories);
}

void WindowTest::exportLeavesHiddenVersionsOutAndKeepsColours()
{
    ResultsView view;
    view.setBundle(fixtureBundle("ecommerce-4-versions.json"));
    view.setHiddenVersions({QStringLiteral("valkey-8.1.1")});
    QCOMPARE(int(view.figures().serverIds().size()), 3);
    QCOMPARE(int(view.figures().allServerIds().size()), 4);

    // What the window's Export… does.
    ExportDialog dialog(view.figures(), view.currentChartKind(), nullptr);
    QCOMPARE(dialog.figures().options().hiddenServers, QStringList{QStringLiteral("valkey-8.1.1")});
    QTemporaryDir folder;
    dialog.setFolder(folder.path());
    const Outcome<QStringList> written = dialog.exportEverything();
    QVERIFY2(written.ok(), qPrintable(written.error()));
    const Outcome<ResultsBundle> saved = loadBundle(folder.filePath(QStringLiteral("results.json")));
    QVERIFY(saved.ok());
    QCOMPARE(int(saved->servers.size()), 3);
    QVERIFY(!saved->server(QStringLiteral("valkey-8.1.1")));
    // Export all writes the report too, without the hidden version.
    QCOMPARE(written->last(), folder.filePath(QStringLiteral("report.md")));
    QFile report(written->last());
    QVERIFY(report.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(report.readAll());
    QVERIFY(text.contains(QLatin1String("![Memory per stored attribute](memory-per-attribute.png)")));
    QVERIFY(!text.contains(QLatin1String("Valkey 8.1.1")));

    // The on-screen chart and the exported one paint valkey-9.1.x alike.
    ChartWidget *onScreen = view.chart(ChartKind::MemoryPerAttribute);
    onScreen->flush();
    ChartGeometry exported;
    QVERIFY(renderChart(view.figures(), ChartKind::MemoryPerAttribute, dialog.options(), &exported).ok());
    QCOMPARE(int(exported.data.series.size()), onScreen->barSetCount());
    for (int s = 0; s < onScreen->barSetCount(); ++s)
        QCOMPARE(exported.data.series[size_t(s)].color.name(), onScreen->seriesColor(s).name());
}

void WindowTest::comparingTwoBundlesShowsBothMachines()
{
    const ResultsBundle bundle = fixtureBundle("hash-ttl-3-versions.json");
    const ResultsBundle merged = mergeBundles(bundle, QStringLiteral("laptop"), bundle, QStringLiteral("server"));
    QCOMPARE(int(merged.servers.size()), 2 * int(bundle.servers.size()));
    QVERIFY(merged.server(QStringLiteral("valkey-9.1.2 @ laptop")));
    QVERIFY(merged.server(QStringLiteral("valkey-9.1.2 @ server")));

    ResultsView view;
    view.setBundle(merged);
    view.flushCharts();
    QCOMPARE(view.chart(ChartKind::MemoryPerAttribute)->barSetCount(), 6);
}

void WindowTest::savedResultsKeepTheChosenBaseline()
{
    MainWindow window;
    window.showResults(fixtureBundle("ecommerce-4-versions.json"), QStringLiteral("ecommerce-4-versions.json"));
    ResultsView *view = window.resultsView();
    QVERIFY(view->hasResults());
    QCOMPARE(view->chart(ChartKind::MemoryPerAttribute)->barSetCount(), 4);

    view->setBaseline(QStringLiteral("valkey-8.1.1"));
    view->setHiddenVersions({QStringLiteral("redis-7.0.15")});
    QCOMPARE(view->chart(ChartKind::MemoryPerAttribute)->barSetCount(), 3);
    const ResultsBundle shown = shownResults(view->figures());
    QCOMPARE(shown.baseline, QStringLiteral("valkey-8.1.1"));
    QCOMPARE(int(shown.servers.size()), 3);

    QTemporaryDir folder;
    const QString path = folder.filePath(suggestedBundleName(shown));
    QVERIFY(path.endsWith(QLatin1String(".json")));
    const Status saved = saveBundleFile(shown, path);
    QVERIFY2(saved, qPrintable(saved.error()));
    Outcome<ResultsBundle> loaded = loadBundleFile(path);
    QVERIFY2(loaded, qPrintable(loaded.error()));
    QCOMPARE(loaded->baseline, QStringLiteral("valkey-8.1.1"));
    QCOMPARE(int(loaded->servers.size()), 3);
}

QTEST_MAIN(WindowTest)
#include "tst_window.moc"
