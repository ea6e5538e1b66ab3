// The results bundle as JSON: every measured field survives a round trip, the derived
// sections carry the names scripts rely on, and bad input fails naming the file and path.

#include "bundlejson.h"
#include "jsonsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include "bundlebuilders.h"

#include <QtTest>
#include <csignal>
#include <sys/resource.h>

namespace {

using namespace BundleBuilders;

ServerRun server(const QString &version, double bytes, double factor)
{
    ServerRun run;
    run.id = QStringLiteral("valkey-") + version;
    run.product = QStringLiteral("valkey");
    run.version = version;
    run.buildId = QStringLiteral("b") + version;
    run.allocator = QStringLiteral("jemalloc-5.3.0");
    run.binarySha256 = QString(64, QLatin1Char('a'));
    run.logTail = {QStringLiteral("* Ready to accept connections tcp")};
    RepeatResult repeat;
    repeat.keys = 5;
    repeat.usedMemoryDelta = (long long)(bytes * 5);
    repeat.byType[QStringLiteral("counter")] = typeMemory(2, bytes * 0.8);
    repeat.byType[QStringLiteral("sum")] = typeMemory(2, bytes * 1.2);
    repeat.byType[QStringLiteral("hsetex")] = factor == 1 ? refused(QStringLiteral("HSETEX")) : typeMemory(1, 300);
    repeat.timing.byCommand[QStringLiteral("incrby")] = stat(10, (long long)(12 * factor));
    repeat.timing.byCommand[QStringLiteral("set")] = stat(5, (long long)(10 * factor));
    repeat.timing.events = 5;
    repeat.timing.commands = 15;
    repeat.timing.seconds = 0.005 * factor;
    repeat.timing.latencyP50Usec = 100;
    repeat.timing.latencyP99Usec = 250.5;
    // The same command error on every server: the workload's, not a server's.
    repeat.errors = {{QStringLiteral("INCRBY: ERR value is not an integer"), 1}};
    repeat.firstError = QStringLiteral("INCRBY: ERR value is not an integer");
    run.repeats.push_back(repeat);
    return run;
}

// Two Valkey versions, one repeat; 9.1.2 is 10% smaller and twice as fast. 8.0.1 has no HSETEX.
ResultsBundle tinyBundle()
{
    ResultsBundle bundle;
    bundle.created = QDateTime(QDate(2026, 11, 27), QTime(14, 5, 31, 250), Qt::UTC);
    bundle.machine = {QStringLiteral("AMD EPYC 7B13"), 2, QStringLiteral("Debian GNU/Linux 12"), QStringLiteral("bench-1")};
    bundle.versusVersion = QStringLiteral("0.1.0");
    bundle.workload.name = QStringLiteral("tiny");
    bundle.workload.sourceFile = QStringLiteral("tiny.jsonl");
    bundle.workload.sourceSha256 = QString(64, QLatin1Char('b'));
    bundle.workload.parameters = {{QStringLiteral("seed"), QStringLiteral("42")}};
    bundle.workload.events = 5;
    bundle.workload.commands = 15;
    bundle.workload.types = {QStringLiteral("counter"), QStringLiteral("sum"), QStringLiteral("hsetex")};
    bundle.servers.push_back(server(QStringLiteral("9.1.2"), 90, 0.5));
    bundle.servers.push_back(server(QStringLiteral("8.0.1"), 100, 1));
    return bundle;
}

void compareTimings(const PassTiming &a, const PassTiming &b)
{
    QCOMPARE(a.byCommand.size(), b.byCommand.size());
    for (const auto &[name, command] : a.byCommand) {
        QCOMPARE(command.calls, b.byCommand.at(name).calls);
        QCOMPARE(command.usec, b.byCommand.at(name).usec);
    }
    QCOMPARE(a.events, b.events);
    QCOMPARE(a.commands, b.commands);
    QCOMPARE(a.seconds, b.seconds);
    QCOMPARE(a.latencyP50Usec, b.latencyP50Usec);
    QCOMPARE(a.latencyP99Usec, b.latencyP99Usec);
}

void compareBundles(const ResultsBundle &a, const ResultsBundle &b)
{
    QCOMPARE(a.created, b.created);
    QCOMPARE(a.created.toMSecsSinceEpoch(), b.created.toMSecsSinceEpoch());
    QCOMPARE(a.machine.cpuModel, b.machine.cpuModel);
    QCOMPARE(a.machine.cores, b.machine.cores);
    QCOMPARE(a.machine.os, b.machine.os);
    QCOMPARE(a.machine.hostname, b.machine.hostname);
    QCOMPARE(a.versusVersion, b.versusVersion);
    QCOMPARE(a.workload.name, b.workload.name);
    QCOMPARE(a.workload.sourceFile, b.workload.sourceFile);
    QCOMPARE(a.workload.sourceSha256, b.workload.sourceSha256);
    QVERIFY(a.workload.parameters == b.workload.parameters);
    QCOMPARE(a.workload.events, b.workload.events);
    QCOMPARE(a.workload.commands, b.workload.commands);
    QCOMPARE(a.workload.types, b.workload.types);
    QCOMPARE(a.workload.typesTimedAlone, b.workload.typesTimedAlone);
    QCOMPARE(a.schedule, b.schedule);
    QCOMPARE(a.repeats, b.repeats);
    QCOMPARE(a.complete, b.complete);
    QCOMPARE(a.baseline, b.baseline);
    QCOMPARE(a.servers.size(), b.servers.size());
    for (const ServerRun &left : a.servers) {
        const ServerRun *right = b.server(left.id);
        QVERIFY2(right, qPrintable(left.id));
        QCOMPARE(left.product, right->product);
        QCOMPARE(left.version, right->version);
        QCOMPARE(left.buildId, right->buildId);
        QCOMPARE(left.allocator, right->allocator);
        QCOMPARE(left.binarySha256, right->binarySha256);
        QCOMPARE(left.status, right->status);
        QCOMPARE(left.error, right->error);
        QCOMPARE(left.logTail, right->logTail);
        QCOMPARE(left.endpoint, right->endpoint);
        QVERIFY2(left.origin == right->origin, qPrintable(left.id));
        QVERIFY2(left.allocatorFacts == right->allocatorFacts, qPrintable(left.id));
        QVERIFY2(left.limits == right->limits, qPrintable(left.id));
        QCOMPARE(left.repeats.size(), right->repeats.size());
        for (size_t i = 0; i < left.repeats.size(); ++i) {
            const RepeatResult &l = left.repeats[i];
            const RepeatResult &r = right->repeats[i];
            QCOMPARE(l.repeat, r.repeat);
            QCOMPARE(l.status, r.status);
            QCOMPARE(l.error, r.error);
            QCOMPARE(l.keys, r.keys);
            QCOMPARE(l.usedMemoryDelta, r.usedMemoryDelta);
            QCOMPARE(l.bytesPerKey(), r.bytesPerKey());
            QCOMPARE(l.redirects.moved, r.redirects.moved);
            QCOMPARE(l.redirects.asked, r.redirects.asked);
            QCOMPARE(l.redirects.retried, r.redirects.retried);
            QCOMPARE(l.byType.size(), r.byType.size());
            for (const auto &[name, type] : l.byType) {
                QVERIFY2(r.byType.count(name), qPrintable(name));
                const TypeMemory &other = r.byType.at(name);
                QCOMPARE(type.status, other.status);
                QCOMPARE(type.error, other.error);
                QCOMPARE(type.keys, other.keys);
                QCOMPARE(type.usedMemoryDelta, other.usedMemoryDelta);
                QCOMPARE(type.bytesPerKey(), other.bytesPerKey());
                QCOMPARE(type.memoryUsageBytesPerKey, other.memoryUsageBytesPerKey);
                QVERIFY(type.encodings == other.encodings);
                QCOMPARE(type.timing.has_value(), other.timing.has_value());
                if (type.timing)
                    compareTimings(*type.timing, *other.timing);
            }
            compareTimings(l.timing, r.timing);
            QCOMPARE(l.firstError, r.firstError);
            QCOMPARE(l.unfinishedTimedPass, r.unfinishedTimedPass);
            QCOMPARE(l.unfinishedType, r.unfinishedType);
            QVERIFY(l.errors == r.errors);
        }
    }
}

QByteArray replaced(QByteArray json, const QByteArray &from, const QByteArray &to)
{
    const int at = json.indexOf(from);
    if (at < 0)
        qFatal("fixture text not found: %s", from.constData());
    return json.replace(at, from.size(), to);
}

} // namespace

class TestBundleJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsEveryField()
    {
        ResultsBundle bundle = tinyBundle();
        bundle.repeats = 2;
        bundle.baseline = QStringLiteral("valkey-8.0.1");
        bundle.complete = false;
        bundle.servers[0].repeats.push_back(bundle.servers[0].repeats[0]);
        bundle.servers[0].repeats[1].repeat = 1;
        bundle.servers[0].repeats[1].usedMemoryDelta = 7;   // 1.4 bytes per key: not exactly representable
        bundle.servers[0].repeats[1].status = RepeatStatus::Incomplete;
        bundle.servers[0].repeats[1].unfinishedType = QStringLiteral("sum");
        bundle.servers[0].repeats[1].unfinishedTimedPass = true;
        bundle.servers[0].repeats[1].redirects = Redirects{7, 2, 1};
        PassTiming alone;
        alone.byCommand[QStringLiteral("hsetex")] = stat(1, 3);
        alone.events = 1;
        alone.commands = 1;
        alone.seconds = 0.25;
        alone.latencyP99Usec = 9.5;
        bundle.servers[0].repeats[1].byType[QStringLiteral("hsetex")].timing = alone;
        bundle.servers[1].status = RunStatus::Failed;
        bundle.servers[1].error = QStringLiteral("exited with code 1: \"bad\" config\nline 2");
        bundle.servers[1].endpoint = true;
        bundle.servers[1].limits.settingsUnread = QStringLiteral("CONFIG GET refused: \"ERR unknown command 'CONFIG'\"");
        bundle.servers[1].limits.trackingLeftOn = bundle.servers[1].limits.settingsUnread;
        bundle.servers[1].limits.statsNotReset = QStringLiteral("not sent: it would free the latency histograms mid-run");
        BuildOrigin &debian = bundle.servers[0].origin;
        debian.kind = BuildKind::DebianPackage;
        debian.suite = QStringLiteral("bookworm-backports");
        debian.packageVersion = QStringLiteral("8.0.1+dfsg1-1~bpo12+1");
        bundle.servers[0].allocatorFacts = {QStringLiteral("jemalloc-5.3.0"), 16, QString()};
        BuildOrigin &upstream = bundle.servers[1].origin;
        upstream.kind = BuildKind::UpstreamBuild;
        upstream.source = QStringLiteral("/src/valkey");
        upstream.sourceSha256 = QStringLiteral("bccb382a");
        upstream.gitSha = QStringLiteral("3c1a7d5b");
        upstream.gitBranch = QStringLiteral("unstable");
        upstream.dirty = true;
        upstream.makeVariables = QStringLiteral("BUILD_TLS=yes");
        upstream.compiler = QStringLiteral("cc (Debian 12.2.0-14) 12.2.0");
        bundle.servers[1].allocatorFacts = {QStringLiteral("jemalloc-5.3.0"), 0,
                                            QStringLiteral("MEMORY MALLOC-STATS refused: ERR unknown command")};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle.json"));
        const Status saved = saveBundle(bundle, path);
        QVERIFY2(saved.ok(), qPrintable(saved.error()));
        const Outcome<ResultsBundle> loaded = loadBundle(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        compareBundles(bundle, loaded.value());
        QCOMPARE(bundleToJson(loaded.value()), bundleToJson(bundle));
    }

    void fixturesLoad_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("ecommerce") << "ecommerce-4-versions.json";
        QTest::newRow("hash-ttl") << "hash-ttl-3-versions.json";
    }
    void fixturesLoad()
    {
        QFETCH(QString, name);
        const QString path = QStringLiteral(VERSUS_FIXTURES "/bundles/") + name;
        const Outcome<ResultsBundle> loaded = loadBundle(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        // The derived sections in the file are exactly what the runs give.
        QCOMPARE(QString::fromUtf8(bundleToJson(loaded.value())), QString::fromUtf8(file.readAll()));
    }

    // Fields a removed feature wrote still load, and read as if they were not there: the bundle
    // is the same as the run's without them.
    void oldFieldsAreIgnored_data()
    {
        QTest::addColumn<QString>("old");
        QTest::addColumn<QString>("same");
        QTest::addColumn<QByteArray>("field");
        // Versus 0.1's speed guard: "retimed" and "slow_passes" in every server's repeat 2.
        QTest::newRow("speed guard") << "real-disturbed.json" << "real-ecommerce.json" << QByteArray("\"slow_passes\"");
    }
    void oldFieldsAreIgnored()
    {
        QFETCH(QString, old);
        QFETCH(QString, same);
        QFETCH(QByteArray, field);
        QFile file(QStringLiteral(VERSUS_FIXTURES "/bundles/") + old);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains(field));
        const Outcome<ResultsBundle> loaded = loadBundle(file.fileName());
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        const Outcome<ResultsBundle> without = loadBundle(QStringLiteral(VERSUS_FIXTURES "/bundles/") + same);
        QVERIFY2(without.ok(), qPrintable(without.error()));
        QCOMPARE(QString::fromUtf8(bundleToJson(loaded.value())), QString::fromUtf8(bundleToJson(without.value())));
    }

    void derivedNamesScriptsRelyOn()
    {
        const Json root = Json::parse(bundleToJson(tinyBundle()).toStdString());
        const Json &memory = root["memory"]["valkey-9.1.2"];
        // 8.0.1 refused hsetex: the total covers the types both support, and says so.
        QCOMPARE(memory["bytes_per_key"]["overall"].get<double>(), (2 * 72.0 + 2 * 108.0) / 4);
        QCOMPARE(QString::fromStdString(memory["overall_scope"].get<std::string>()),
                 QStringLiteral("over counter and sum, the types every server supports"));
        QCOMPARE(memory["bytes_per_key"]["by_type"]["counter"].get<double>(), 72.0);
        QCOMPARE(memory["state"]["by_type"]["counter"].get<std::string>(), std::string("measured"));
        const Json &old = root["memory"]["valkey-8.0.1"];
        QVERIFY(old["bytes_per_key"]["by_type"]["hsetex"].is_null());
        QCOMPARE(old["state"]["by_type"]["hsetex"].get<std::string>(), std::string("unsupported"));
        QCOMPARE(old["unsupported"]["hsetex"].get<std::string>(), std::string("ERR unknown command 'HSETEX'"));
        QVERIFY(old["memory_usage"]["differs_by_more_than_10_percent"]["counter"].get<bool>());
        QCOMPARE(old["keys"]["by_type"]["counter"].get<double>(), 2.0);
        // A timed pass on a server that refused a type covers other commands: no time total.
        const Json &commands = root["commands"]["valkey-8.0.1"];
        QVERIFY(commands["usec_per_call"]["overall"].is_null());
        QCOMPARE(commands["usec_per_call"]["by_command"]["incrby"].get<double>(), 1.2);
        QCOMPARE(commands["calls"]["incrby"].get<double>(), 10.0);
        QCOMPARE(root["verdicts"]["valkey-8.0.1"].get<std::string>(), std::string("ok, 1 command errors"));
        QCOMPARE(root["servers"][0]["id"].get<std::string>(), std::string("valkey-8.0.1"));
        QCOMPARE(root["workload"]["events"].get<int>(), 5);
        QCOMPARE(root["baseline_effective"].get<std::string>(), std::string("valkey-8.0.1"));
    }

    void futureSchemaIsRefused()
    {
        const QByteArray json = replaced(bundleToJson(tinyBundle()), "\"versus.results/1\"", "\"versus.results/2\"");
        const Outcome<ResultsBundle> loaded = bundleFromJson(json, QStringLiteral("/data/new.json"));
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error(), QStringLiteral("/data/new.json: schema \"versus.results/2\" was written by a newer Versus; "
                                                "this Versus reads \"versus.results/1\""));
        const Outcome<ResultsBundle> other = bundleFromJson("{\"hello\": 1}", QStringLiteral("x.json"));
        QVERIFY(!other.ok());
        QVERIFY(other.error().startsWith(QStringLiteral("x.json: not a Versus results bundle")));
    }

    void malformedJsonNamesFileLineAndColumn()
    {
        const Outcome<ResultsBundle> loaded = bundleFromJson("{\"schema\": \"versus.results/1\",\n \"created\": }",
                                                             QStringLiteral("broken.json"));
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().startsWith(QStringLiteral("broken.json:2:13: malformed JSON: ")), qPrintable(loaded.error()));
    }

    void wrongTypesNameTheJsonPath_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("events") << QByteArray("\"events\": 5,\n    \"commands\": 15,\n    \"types\"")
                                << QByteArray("\"events\": \"5\",\n    \"commands\": 15,\n    \"types\"")
                                << "t.json: at /workload/events: expected an integer, got string";
        QTest::newRow("repeat keys") << QByteArray("\"keys\": 5,") << QByteArray("\"keys\": 5.5,")
                                     << "t.json: at /runs/valkey-8.0.1/0/keys: expected an integer, got number";
        QTest::newRow("huge count") << QByteArray("\"keys\": 5,") << QByteArray("\"keys\": 1e400,")
                                    << "t.json: malformed JSON: number overflow parsing '1e400'";
        QTest::newRow("command calls") << QByteArray("\"calls\": 10,") << QByteArray("\"calls\": null,")
                                       << "t.json: at /runs/valkey-8.0.1/0/by_command/incrby/calls: expected an integer, got null";
        QTest::newRow("status") << QByteArray("\"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                << QByteArray("\"status\": \"fine\",\n      \"error\": \"\",\n      \"log_tail\"")
                                << "t.json: at /servers/0/status: unknown value \"fine\" (expected ok, failed, incomplete)";
        QTest::newRow("servers") << QByteArray("\"servers\": [") << QByteArray("\"servers\": 3, \"x\": [")
                                 << "t.json: at /servers: type must be array, but is number";
        QTest::newRow("redirect kind") << QByteArray("\"keys\": 5,") << QByteArray("\"keys\": 5, \"redirects\": {\"MOVE\": 1},")
                                       << "t.json: at /runs/valkey-8.0.1/0/redirects: unknown redirect \"MOVE\" (expected MOVED, ASK or TRYAGAIN)";
        QTest::newRow("command kind") << QByteArray("\"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                      << QByteArray("\"command_kinds\": {\"SET\": \"writes\"}, \"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                      << "t.json: at /servers/0/command_kinds: unknown command kind \"writes\" (expected write, read or \"\")";
        QTest::newRow("limits") << QByteArray("\"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                << QByteArray("\"limits\": [1], \"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                << "t.json: at /servers/0/limits: expected an object, got array";
        QTest::newRow("a limit") << QByteArray("\"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                 << QByteArray("\"limits\": {\"stats_not_reset\": 5}, \"status\": \"ok\",\n      \"error\": \"\",\n      \"log_tail\"")
                                 << "t.json: at /servers/0/limits/stats_not_reset: type must be string, but is number";
        QTest::newRow("redirect count") << QByteArray("\"keys\": 5,") << QByteArray("\"keys\": 5, \"redirects\": {\"ASK\": -3},")
                                        << "t.json: at /runs/valkey-8.0.1/0/redirects: a redirect count below 0";
    }
    void wrongTypesNameTheJsonPath()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, message);
        const Outcome<ResultsBundle> loaded = bundleFromJson(replaced(bundleToJson(tinyBundle()), from, to), QStringLiteral("t.json"));
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error(), message);
    }

    // The build and allocator keys as the bundle writes them, and wrong types in them read as
    // errors naming the path, never as a crash.
    void buildKeys()
    {
        ResultsBundle bundle = tinyBundle();
        bundle.servers[0].origin.kind = BuildKind::DebianPackage;
        bundle.servers[0].origin.suite = QStringLiteral("trixie");
        bundle.servers[0].allocatorFacts = {QStringLiteral("jemalloc-5.3.0"), 16, QString()};
        const Json root = Json::parse(bundleToJson(bundle).toStdString());
        const auto written = [&root](const char *id) {
            for (const Json &server : root.at("servers")) {
                if (server.at("id") == id)
                    return server;
            }
            return Json();
        };
        const Json server = written("valkey-9.1.2");
        QCOMPARE(QString::fromStdString(server["build"].dump()), QStringLiteral("{\"origin\":\"debian-package\",\"suite\":\"trixie\"}"));
        QCOMPARE(server["mem_allocator"].get<std::string>(), std::string("jemalloc-5.3.0"));
        QCOMPARE(server["jemalloc_quantum"].get<int>(), 16);
        QVERIFY(!server.contains("jemalloc_quantum_problem"));
        // Nothing known, nothing written: older bundles write back as they were.
        QVERIFY(!written("valkey-8.0.1").contains("build"));
        QVERIFY(!written("valkey-8.0.1").contains("jemalloc_quantum"));
    }

    void hostileBuildKeysAreErrors_data()
    {
        QTest::addColumn<QByteArray>("inserted");
        QTest::addColumn<QString>("message");
        QTest::newRow("build not an object") << QByteArray("\"build\": \"debian\"")
                                             << "t.json: at /servers/0/build: expected an object, got string";
        QTest::newRow("dirty not a bool") << QByteArray("\"build\": {\"origin\": \"upstream-build\", \"dirty\": \"yes\"}")
                                          << "t.json: at /servers/0/build/dirty: type must be boolean, but is string";
        QTest::newRow("suite a number") << QByteArray("\"build\": {\"suite\": 12}")
                                        << "t.json: at /servers/0/build/suite: type must be string, but is number";
        QTest::newRow("quantum a string") << QByteArray("\"jemalloc_quantum\": \"16\"")
                                          << "t.json: at /servers/0/jemalloc_quantum: expected an integer, got string";
        QTest::newRow("quantum negative") << QByteArray("\"jemalloc_quantum\": -8")
                                          << "t.json: at /servers/0/jemalloc_quantum: a quantum is a positive number of bytes";
        QTest::newRow("allocator an array") << QByteArray("\"mem_allocator\": [1]")
                                            << "t.json: at /servers/0/mem_allocator: type must be string, but is array";
    }
    void hostileBuildKeysAreErrors()
    {
        QFETCH(QByteArray, inserted);
        QFETCH(QString, message);
        const QByteArray json = replaced(bundleToJson(tinyBundle()), "\"id\": \"valkey-8.0.1\",", "\"id\": \"valkey-8.0.1\", " + inserted + ",");
        // valkey-8.0.1 is the first server written (oldest first).
        const Outcome<ResultsBundle> loaded = bundleFromJson(json, QStringLiteral("t.json"));
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error(), message);
    }

    void failedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle.json"));
        ResultsBundle small = tinyBundle();
        small.servers.pop_back();
        QVERIFY(saveBundle(small, path).ok());
        QFile before(path);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray old = before.readAll();
        before.close();

        // Make the write fail part-way, for root too: cap the file size below the new bundle's.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit original{};
        getrlimit(RLIMIT_FSIZE, &original);
        rlimit capped = original;
        capped.rlim_cur = 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &capped), 0);
        const Status status = saveBundle(tinyBundle(), path);
        setrlimit(RLIMIT_FSIZE, &original);

        QVERIFY2(!status.ok(), qPrintable(QString::number(bundleToJson(tinyBundle()).size())));
        QVERIFY2(status.error().startsWith(path + QStringLiteral(": cannot write")), qPrintable(status.error()));
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("bundle.json")});
    }

    void unreadableFileNamesThePath()
    {
        const Outcome<ResultsBundle> loaded = loadBundle(QStringLiteral("/nonexistent/bundle.json"));
        QVERIFY(!loaded.ok());
        QVERIFY(loaded.error().startsWith(QStringLiteral("/nonexistent/bundle.json: cannot read")));
    }
};

QTEST_GUILESS_MAIN(TestBundleJson)
#include "tst_bundlejson.moc"
