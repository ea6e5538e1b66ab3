// The fleet against every fetched server at once: start them together, PING each, check each
// reports its own version, shut them all down, and check no server process is left.

#include "infoparser.h"
#include "redisconnection.h"
#include "serverfleet.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QMutex>
#include <QSet>
#include <QTest>
#include <QThread>

#include <csignal>

using namespace ServerTestHelpers;

namespace {

QString nameOf(const FleetServerState &state)
{
    return state.label + QLatin1Char(' ') + fleetStateName(state.state);
}

} // namespace

class TestServerFleet : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyVersionAtOnce();
    void oneBadServerDoesNotStopTheOthers();
    void eachServerLivesInItsOwnThread();
    void emptyFleet();
};

void TestServerFleet::initTestCase()
{
    std::signal(SIGPIPE, SIG_IGN);
}

void TestServerFleet::everyVersionAtOnce()
{
    VERSUS_REQUIRE_SERVERS();
    const std::vector<ServerSpec> specs = fetchedServers();
    QVERIFY(specs.size() >= 4);

    ServerFleet fleet(specs);
    QMutex eventsMutex;
    QStringList events;
    fleet.setStateCallback([&](const FleetServerState &state) {
        QMutexLocker lock(&eventsMutex);
        events << nameOf(state);
    });

    const std::vector<Status> started = fleet.startAll();
    QCOMPARE(started.size(), specs.size());
    for (size_t i = 0; i < started.size(); ++i)
        QVERIFY2(started[i], qPrintable(started[i].error()));

    QSet<int> ports;
    std::vector<qint64> pids;
    for (int i = 0; i < fleet.size(); ++i) {
        const ServerSpec &spec = specs[size_t(i)];
        const FleetServerState state = fleet.state(i);
        QCOMPARE(state.label, spec.label);
        QCOMPARE(state.state, FleetServerState::State::Ready);
        QVERIFY(processAlive(state.pid));
        ports.insert(state.port);
        pids.push_back(state.pid);

        RedisConnection connection;
        const Status connected = connection.connectTcp(QStringLiteral("127.0.0.1"), state.port, 2000, spec.label);
        QVERIFY2(connected, qPrintable(connected.error()));
        Outcome<Reply> pong = connection.command({"PING"});
        QVERIFY2(pong, qPrintable(pong.error()));
        QCOMPARE(QString::fromStdString(pong->text), QStringLiteral("PONG"));

        // Each server says it is the version its manifest promised.
        Outcome<QString> info = connection.info(QStringLiteral("server"));
        QVERIFY2(info, qPrintable(info.error()));
        const InfoServer identity = parseInfoServer(info.value());
        QCOMPARE(identity.product, spec.identity.product);
        QCOMPARE(identity.version, spec.identity.version);
        const std::map<QString, QString> fields = parseInfoFields(info.value());
        QCOMPARE(fields.count(QStringLiteral("valkey_version")), size_t(spec.identity.product == QLatin1String("valkey")));
        QCOMPARE(fields.at(QStringLiteral("tcp_port")), QString::number(state.port));
        QCOMPARE(fields.at(QStringLiteral("process_id")).toLongLong(), state.pid);
    }
    QCOMPARE(ports.size(), fleet.size());

    QStringList dirs;
    for (int i = 0; i < fleet.size(); ++i)
        fleet.runOn(i, [&](ServerProcess *server) { dirs << server->tempDirPath(); });
    for (int i = 0; i < fleet.size(); ++i)
        QCOMPARE(pidsMentioning(dirs[i]), std::vector<qint64>{pids[size_t(i)]});

    fleet.stopAll();
    for (int i = 0; i < fleet.size(); ++i) {
        const QString label = specs[size_t(i)].label;
        QCOMPARE(fleet.state(i).state, FleetServerState::State::Stopped);
        QVERIFY2(!processAlive(pids[size_t(i)]), qPrintable(label + QStringLiteral(" is still running")));
        QVERIFY2(pidsMentioning(dirs[i]).empty(), qPrintable(label + QStringLiteral(" left a process behind")));
        QVERIFY2(!QFileInfo::exists(dirs[i]), qPrintable(label + QStringLiteral(" left its temp dir behind")));
    }

    // Every server went through the same states, in order.
    QMutexLocker lock(&eventsMutex);
    for (const ServerSpec &spec : specs) {
        QStringList own;
        for (const QString &event : events) {
            if (event.startsWith(spec.label + QLatin1Char(' ')))
                own << event.mid(spec.label.size() + 1);
        }
        QCOMPARE(own, QStringList({QStringLiteral("starting"), QStringLiteral("ready"), QStringLiteral("stopping"),
                                   QStringLiteral("stopped")}));
    }
}

void TestServerFleet::oneBadServerDoesNotStopTheOthers()
{
    VERSUS_REQUIRE_SERVER(good, "valkey-8.0.1");
    ServerSpec bad;
    bad.label = QStringLiteral("valkey-missing");
    bad.program = QStringLiteral("/nonexistent/valkey-server");
    ServerSpec goodAgain = good;
    goodAgain.label = good.label + QStringLiteral("-second");

    ServerFleet fleet({good, bad, goodAgain});
    const std::vector<Status> started = fleet.startAll();
    QVERIFY2(started[0], qPrintable(started[0].error()));
    QCOMPARE(started[1].error(), QStringLiteral("valkey-missing: server program /nonexistent/valkey-server does not exist"));
    QVERIFY2(started[2], qPrintable(started[2].error()));

    QCOMPARE(fleet.state(1).state, FleetServerState::State::Failed);
    QCOMPARE(fleet.state(1).error, started[1].error());
    QCOMPARE(fleet.state(0).state, FleetServerState::State::Ready);
    QCOMPARE(fleet.state(2).state, FleetServerState::State::Ready);
    QVERIFY(fleet.state(0).port != fleet.state(2).port);

    const qint64 first = fleet.state(0).pid;
    const qint64 second = fleet.state(2).pid;
    fleet.stopAll();
    QVERIFY(!processAlive(first));
    QVERIFY(!processAlive(second));
    QCOMPARE(fleet.state(1).state, FleetServerState::State::Failed);
    fleet.stopAll();   // twice is harmless
}

void TestServerFleet::eachServerLivesInItsOwnThread()
{
    VERSUS_REQUIRE_SERVER(spec, "redis-7.0.");
    ServerSpec other = spec;
    other.label = spec.label + QStringLiteral("-b");
    ServerFleet fleet({spec, other});
    const std::vector<Status> started = fleet.startAll();
    QVERIFY(started[0] && started[1]);

    QThread *threads[2] = {nullptr, nullptr};
    QString dirs[2];
    for (int i = 0; i < 2; ++i) {
        fleet.runOn(i, [&, i](ServerProcess *server) {
            threads[i] = QThread::currentThread();
            dirs[i] = server ? server->tempDirPath() : QString();
        });
    }
    QVERIFY(threads[0] && threads[1]);
    QVERIFY(threads[0] != threads[1]);
    QVERIFY(threads[0] != QThread::currentThread());
    QVERIFY(!dirs[0].isEmpty() && dirs[0] != dirs[1]);

    fleet.stopAll();
    QVERIFY(!QFileInfo::exists(dirs[0]));
    QVERIFY(!QFileInfo::exists(dirs[1]));
    bool ranWithoutServer = false;
    fleet.runOn(0, [&](ServerProcess *server) { ranWithoutServer = server == nullptr; });
    QVERIFY(ranWithoutServer);
}

void TestServerFleet::emptyFleet()
{
    ServerFleet fleet({});
    QVERIFY(fleet.startAll().empty());
    QCOMPARE(fleet.size(), 0);
    fleet.stopAll();
}

QTEST_GUILESS_MAIN(TestServerFleet)
#include "tst_serverfleet.moc"
