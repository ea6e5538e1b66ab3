// EndpointState against servers the test starts itself with their default settings: what a run
// changes on an endpoint is read first and put back exactly, and nothing else is touched.
#include "endpointmarker.h"
#include "endpointstate.h"
#include "foreignserver.h"
#include "replayaccess.h"
#include "servercatalog.h"
#include "servertesthelpers.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const char *const kUserLibrary = "#!lua name=userlib\nredis.register_function('user_one', function() return 1 end)";
const char *const kWorkloadLibrary = "#!lua name=workloadlib\nredis.register_function('wl', function() return 2 end)";
// The workload's version of the user's library, and another client's libraries.
const char *const kWorkloadUserLibrary = "#!lua name=userlib\nredis.register_function('user_one', function() return 3 end)";
const char *const kOwnersOtherLibrary = "#!lua name=ownerlib\nredis.register_function('owner_two', function() return 4 end)";
const char *const kOthersLibrary = "#!lua name=otherlib\nredis.register_function('other', function() return 5 end)";
const char *const kOthersUserLibrary = "#!lua name=userlib\nredis.register_function('user_one', function() return 6 end)";

ServerSpec endpointSpec(const ForeignServer &server, const QString &password = {})
{
    ServerSpec spec = ServerCatalog::parseEndpoint(server.hostPort()).value();
    spec.password = password;
    return spec;
}

// Library names of FUNCTION LIST, sorted.
QStringList libraries(const ForeignServer &server)
{
    RedisConnection connection;
    if (!server.connect(connection))
        return {QStringLiteral("<cannot connect>")};
    Outcome<Reply> list = connection.command({"FUNCTION", "LIST"});
    if (!list)
        return {list.error()};
    QStringList names;
    for (const Reply &library : list->elements) {
        for (size_t i = 0; i + 1 < library.elements.size(); i += 2) {
            if (library.elements[i].text == "library_name")
                names << QString::fromStdString(library.elements[i + 1].text);
        }
    }
    names.sort();
    return names;
}

// The lines of INFO latencystats that hold a command's histogram.
QStringList latencyHistograms(const ForeignServer &server)
{
    QStringList lines;
    for (const QString &line : server.command({"INFO", "latencystats"}).split(QStringLiteral("\r\n"))) {
        if (line.startsWith(QLatin1String("latency_percentiles_usec_")))
            lines << line.section(QLatin1Char(':'), 0, 0);
    }
    return lines;
}

// CONFIG GET * as the user "admin" (password "admin-pw").
std::map<QString, QString> settingsAsAdmin(const ForeignServer &server)
{
    std::map<QString, QString> values;
    RedisConnection connection;
    if (!server.connect(connection))
        return values;
    Outcome<Reply> auth = connection.command({"AUTH", "admin", "admin-pw"});
    Outcome<Reply> reply = connection.command({"CONFIG", "GET", "*"});
    if (!auth || auth->isError() || !reply)
        return values;
    for (size_t i = 0; i + 1 < reply->elements.size(); i += 2)
        values[QString::fromStdString(reply->elements[i].text)] = QString::fromStdString(reply->elements[i + 1].text);
    return values;
}

} // namespace

class EndpointStateTest : public QObject {
    Q_OBJECT

private slots:
    // A whole run's worth of changes, then restore(): every setting as found, the workload's
    // function library gone and the user's back, no key left.
    void restorePutsBackWhatARunChanged()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"FUNCTION", "LOAD", kUserLibrary}), QStringLiteral("userlib"));
        const std::map<QString, QString> before = server.settings();
        QCOMPARE(before.at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));

        const QString name = QStringLiteral("endpoint (%1)").arg(server.hostPort());
        EndpointState state(endpointSpec(server), 5000, name);
        state.setWorkloadLibraries({kWorkloadLibrary});
        const Status captured = state.capture();
        QVERIFY2(captured, qPrintable(captured.error()));
        QVERIFY(server.settings() == before);   // capture() changes nothing

        const Status prepared = state.prepareForMeasuring();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        std::map<QString, QString> during = server.settings();
        QCOMPARE(during.at(QStringLiteral("latency-tracking")), QStringLiteral("no"));
        during[QStringLiteral("latency-tracking")] = QStringLiteral("yes");
        QVERIFY(during == before);              // and nothing else

        // What a workload leaves: keys, and a library (FUNCTION LOAD outlives FLUSHALL).
        QCOMPARE(server.command({"SET", "run:key", "v"}), QStringLiteral("OK"));
        QCOMPARE(server.command({"FUNCTION", "LOAD", kWorkloadLibrary}), QStringLiteral("workloadlib"));
        QCOMPARE(libraries(server), (QStringList{QStringLiteral("userlib"), QStringLiteral("workloadlib")}));

        const Outcome<QStringList> restored = state.restore();
        QVERIFY2(restored, qPrintable(restored.error()));
        QCOMPARE(restored.value(), (QStringList{name + QStringLiteral(": function libraries the workload loaded deleted: workloadlib"),
                                                name + QStringLiteral(": latency-tracking put back to yes")}));
        QVERIFY(server.settings() == before);
        QCOMPARE(libraries(server), QStringList{QStringLiteral("userlib")});
        QCOMPARE(server.command({"DBSIZE"}), QStringLiteral("0"));
    }

    // Only what the workload loaded is undone: its new library deleted, the user's library it
    // replaced loaded again. A library another client loaded, replaced or deleted during the
    // run is theirs: named and kept. (The replay user may FUNCTION LOAD, never DELETE.)
    void othersLibrariesAreKept_data()
    {
        QTest::addColumn<bool>("othersReplaceUserlib");
        QTest::newRow("the workload replaced userlib") << false;
        QTest::newRow("another client replaced userlib") << true;
    }

    void othersLibrariesAreKept()
    {
        QFETCH(bool, othersReplaceUserlib);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"FUNCTION", "LOAD", kUserLibrary}), QStringLiteral("userlib"));
        QCOMPARE(server.command({"FUNCTION", "LOAD", kOwnersOtherLibrary}), QStringLiteral("ownerlib"));
        const QString name = server.hostPort();
        EndpointState state(endpointSpec(server), 5000, name);
        state.setWorkloadLibraries({kWorkloadLibrary, kWorkloadUserLibrary});
        QVERIFY(state.capture());
        QVERIFY(state.prepareForMeasuring());

        QCOMPARE(server.command({"FUNCTION", "LOAD", kWorkloadLibrary}), QStringLiteral("workloadlib"));
        const char *const userlib = othersReplaceUserlib ? kOthersUserLibrary : kWorkloadUserLibrary;
        QCOMPARE(server.command({"FUNCTION", "LOAD", "REPLACE", userlib}), QStringLiteral("userlib"));
        QCOMPARE(server.command({"FUNCTION", "LOAD", kOthersLibrary}), QStringLiteral("otherlib"));
        QCOMPARE(server.command({"FUNCTION", "DELETE", "ownerlib"}), QStringLiteral("OK"));

        const Outcome<QStringList> restored = state.restore();
        QVERIFY2(restored, qPrintable(restored ? QString() : restored.error()));
        QStringList expected{name + QStringLiteral(": function libraries the workload loaded deleted: workloadlib")};
        if (othersReplaceUserlib) {
            expected << name + QStringLiteral(": function libraries changed during the run by another client: kept as they are: "
                                              "otherlib, ownerlib, userlib");
        } else {
            expected << name + QStringLiteral(": function libraries the workload replaced put back as they were before the run: userlib")
                     << name + QStringLiteral(": function libraries changed during the run by another client: kept as they are: "
                                              "otherlib, ownerlib");
        }
        expected << name + QStringLiteral(": latency-tracking put back to yes");
        QCOMPARE(restored.value(), expected);
        QCOMPARE(libraries(server), (QStringList{QStringLiteral("otherlib"), QStringLiteral("userlib")}));
        QCOMPARE(server.command({"FCALL", "user_one", "0"}), othersReplaceUserlib ? QStringLiteral("6") : QStringLiteral("1"));
        QCOMPARE(server.command({"FCALL", "other", "0"}), QStringLiteral("5"));
    }

    // CONFIG RESETSTAT after latency-tracking no: the histograms that commands sent before
    // allocated are gone, and commands sent afterwards allocate none (item 8's cause).
    void prepareLeavesNoLatencyHistogram()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "a", "1"}), QStringLiteral("OK"));
        QCOMPARE(server.command({"GET", "a"}), QStringLiteral("1"));
        const QStringList earlier = latencyHistograms(server);
        QVERIFY2(earlier.contains(QStringLiteral("latency_percentiles_usec_set")), qPrintable(earlier.join(QLatin1Char(','))));
        QVERIFY2(earlier.contains(QStringLiteral("latency_percentiles_usec_get")), qPrintable(earlier.join(QLatin1Char(','))));

        EndpointState state(endpointSpec(server), 5000, server.hostPort());
        QVERIFY(state.capture());
        QVERIFY(state.prepareForMeasuring());
        QCOMPARE(server.command({"HSET", "h", "f", "v"}), QStringLiteral("1"));
        QCOMPARE(latencyHistograms(server), QStringList());
        QVERIFY(state.restore());
        QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    }

    // A setting someone else changed during the run is named (never its value) and left as it is.
    void someoneElsesChangeIsReportedAndKept()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        const QString name = server.hostPort();
        EndpointState state(endpointSpec(server), 5000, name);
        QVERIFY(state.capture());
        QVERIFY(state.prepareForMeasuring());
        QCOMPARE(server.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}), QStringLiteral("OK"));
        const Outcome<QStringList> restored = state.restore();
        QVERIFY2(restored, qPrintable(restored.error()));
        QCOMPARE(restored.value(), (QStringList{name + QStringLiteral(": latency-tracking put back to yes"),
                                                name + QStringLiteral(": settings changed during the run by someone other than "
                                                                      "Versus, left as they are now: maxmemory-policy")}));
        QCOMPARE(server.settings().at(QStringLiteral("maxmemory-policy")), QStringLiteral("allkeys-lru"));
    }

    // A server that refuses parts of CONFIG, as managed services do, is measured around the
    // refusal: what it refuses becomes a limit, nothing is changed that could not be read
    // first, and the statistics are never reset while latency tracking stays on.
    void refusedConfigIsMeasuredAround_data()
    {
        QTest::addColumn<QStringList>("denied");          // ACL rules for the default user
        QTest::addColumn<bool>("settingsUnread");
        QTest::addColumn<bool>("trackingLeftOn");
        QTest::addColumn<QString>("trackingAfterPrepare");
        QTest::newRow("CONFIG refused") << QStringList{QStringLiteral("-config")} << true << true << QStringLiteral("yes");
        QTest::newRow("CONFIG SET and RESETSTAT refused")
            << QStringList{QStringLiteral("-config|set"), QStringLiteral("-config|resetstat")} << false << true << QStringLiteral("yes");
        QTest::newRow("RESETSTAT refused") << QStringList{QStringLiteral("-config|resetstat")} << false << false << QStringLiteral("no");
    }

    void refusedConfigIsMeasuredAround()
    {
        QFETCH(QStringList, denied);
        QFETCH(bool, settingsUnread);
        QFETCH(bool, trackingLeftOn);
        QFETCH(QString, trackingAfterPrepare);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"ACL", "SETUSER", "admin", "on", ">admin-pw", "~*", "&*", "+@all"}), QStringLiteral("OK"));
        std::vector<std::string> rules{"ACL", "SETUSER", "default"};
        for (const QString &rule : denied)
            rules.push_back(rule.toStdString());
        QCOMPARE(server.command(rules), QStringLiteral("OK"));
        QCOMPARE(server.command({"SET", "precious", "data"}), QStringLiteral("OK"));
        const std::map<QString, QString> before = settingsAsAdmin(server);
        QVERIFY(!before.empty());
        const QString name = server.hostPort();
        EndpointState state(endpointSpec(server), 5000, name);
        QVERIFY(state.capture());
        QVERIFY(state.prepareForMeasuring());
        const MeasurementLimits &limits = state.limits();
        QCOMPARE(!limits.settingsUnread.isEmpty(), settingsUnread);
        if (settingsUnread)
            QVERIFY2(limits.settingsUnread.startsWith(QLatin1String("CONFIG GET refused: \"NOPERM")), qPrintable(limits.settingsUnread));
        QCOMPARE(limits.needsWarming(), trackingLeftOn);
        QVERIFY(limits.statsByDifference());
        QCOMPARE(settingsAsAdmin(server).at(QStringLiteral("latency-tracking")), trackingAfterPrepare);
        QCOMPARE(server.command({"DBSIZE"}), QStringLiteral("0"));   // the consented flush
        // Not reset: the SET sent before the run is still counted (and its histogram kept when tracking stays on).
        QVERIFY2(server.command({"INFO", "commandstats"}).contains(QLatin1String("cmdstat_set:calls=1,")),
                 qPrintable(server.command({"INFO", "commandstats"})));
        if (trackingLeftOn)
            QVERIFY(latencyHistograms(server).contains(QStringLiteral("latency_percentiles_usec_set")));
        QCOMPARE(server.command({"SET", "run", "key"}), QStringLiteral("OK"));
        const Outcome<QStringList> restored = state.restore();
        QVERIFY2(restored, qPrintable(restored ? QString() : restored.error()));
        if (settingsUnread)
            QCOMPARE(restored.value(), QStringList{name + QStringLiteral(": no setting was changed (") + limits.settingsUnread + QLatin1Char(')')});
        QCOMPARE(server.command({"DBSIZE"}), QStringLiteral("0"));
        QVERIFY(settingsAsAdmin(server) == before);
    }

    // A server that refuses FLUSHALL cannot be measured: the run stops before it changes anything.
    void refusedFlushStopsBeforeAnyChange()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"ACL", "SETUSER", "admin", "on", ">admin-pw", "~*", "&*", "+@all"}), QStringLiteral("OK"));
        QCOMPARE(server.command({"ACL", "SETUSER", "default", "-flushall"}), QStringLiteral("OK"));
        QCOMPARE(server.command({"SET", "precious", "data"}), QStringLiteral("OK"));
        const std::map<QString, QString> before = settingsAsAdmin(server);
        const QString name = server.hostPort();
        EndpointState state(endpointSpec(server), 5000, name);
        QVERIFY(state.capture());
        const Status prepared = state.prepareForMeasuring();
        QVERIFY(!prepared);
        QVERIFY2(prepared.error().startsWith(name + QStringLiteral(": FLUSHALL SYNC failed: NOPERM")), qPrintable(prepared.error()));
        QVERIFY2(prepared.error().endsWith(QStringLiteral("with no setting changed and no statistic reset)")), qPrintable(prepared.error()));
        QCOMPARE(server.command({"GET", "precious"}), QStringLiteral("data"));
        QVERIFY(server.command({"INFO", "commandstats"}).contains(QLatin1String("cmdstat_set:calls=1,")));
        QVERIFY(settingsAsAdmin(server) == before);
        const Outcome<QStringList> restored = state.restore();   // nothing was changed: nothing to put back
        QVERIFY(restored);
        QCOMPARE(restored.value(), QStringList());
        QCOMPARE(server.command({"GET", "precious"}), QStringLiteral("data"));
    }

    // Another machine's run on the server: its replay user of Versus's exact shape and its
    // latency-tracking no, written down in a marker on that machine only. This run takes no
    // for what it may be (that run's), never writes it down as the owner's, and does not put it
    // back: the other run ends first and puts back yes, which stays (before: set back to no).
    void anotherMachinesSettingIsNeverPutBack()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QTemporaryDir state;
        const QByteArray savedState = qgetenv("XDG_STATE_HOME");
        qputenv("XDG_STATE_HOME", state.path().toUtf8());
        const auto restoreEnvironment = qScopeGuard([&] { qputenv("XDG_STATE_HOME", savedState); });
        EndpointLogin login;
        login.host = QStringLiteral("127.0.0.1");
        login.port = server.port();
        login.name = QStringLiteral("other machine");
        Outcome<ReplayAccess> other = ReplayAccess::forEndpoint(login, {});
        QVERIFY2(other && other->mode() == ReplayAccess::Mode::TemporaryUser, qPrintable(other ? other->description() : other.error()));
        QCOMPARE(server.command({"CONFIG", "SET", "latency-tracking", "no"}), QStringLiteral("OK"));

        const QString name = server.hostPort();
        EndpointState run(endpointSpec(server), 5000, name);
        QVERIFY(run.capture());
        QCOMPARE(run.takeNotes(), QStringList{name + QStringLiteral(": latency-tracking is no, the value Versus sets, while ACL "
                                                                    "users of another run of Versus are on the server (%1; a run "
                                                                    "going on now, or one killed, from another machine): it may be "
                                                                    "that run's, not the owner's, so this run does not put it back")
                                                         .arg(other->replayCredentials().user)});
        QVERIFY(run.prepareForMeasuring());
        const Outcome<std::optional<EndpointMarker>> marker = readEndpointMarker(server.runId());
        QVERIFY2(marker && marker.value(), qPrintable(marker ? QStringLiteral("no marker") : marker.error()));
        QCOMPARE(marker.value()->settings, (std::map<QString, QString>()));

        QCOMPARE(server.command({"CONFIG", "SET", "latency-tracking", "yes"}), QStringLiteral("OK"));
        QVERIFY(other->release());
        const Outcome<QStringList> restored = run.restore();
        QVERIFY2(restored, qPrintable(restored.error()));
        QCOMPARE(restored.value(), (QStringList{name + QStringLiteral(": latency-tracking left at yes: the no it had when this run "
                                                                      "began may have been another run's"),
                                                name + QStringLiteral(": settings changed during the run by someone other than "
                                                                      "Versus, left as they are now: latency-tracking")}));
        QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
        QVERIFY(!QFile::exists(endpointMarkerPath(server.runId())));
    }
};

QTEST_GUILESS_MAIN(EndpointStateTest)
#include "tst_endpointstate.moc"
