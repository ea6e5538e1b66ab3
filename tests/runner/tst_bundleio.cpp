#include "bundleio.h"
#include "presentation.h"
#include "resultsstats.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <sys/resource.h>

namespace {

CommandStat stat(long long calls, long long usec)
{
    CommandStat result;
    result.calls = calls;
    result.usec = usec;
    return result;
}

TypeMemory typeMemory(long long keys, double bytesPerKey)
{
    TypeMemory type;
    type.keys = keys;
    type.bytesPerKey = bytesPerKey;
    type.usedMemoryDelta = (long long)(keys * bytesPerKey);
    type.memoryUsageBytesPerKey = bytesPerKey * 0.8;
    type.encodings = {{QStringLiteral("int"), keys}};
    return type;
}

TypeMemory refused(const QString &command)
{
    TypeMemory type;
    type.status = QStringLiteral("unsupported");
    type.error = QStringLiteral("ERR unknown command '%1'").arg(command);
    return type;
}

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
    repeat.bytesPerKey = bytes;
    repeat.usedMemoryDelta = (long long)(bytes * 5);
    repeat.byType[QStringLiteral("counter")] = typeMemory(2, bytes * 0.8);
    repeat.byType[QStringLiteral("sum")] = typeMemory(2, bytes * 1.2);
    repeat.byType[QStringLiteral("hsetex")] = factor == 1 ? refused(QStringLiteral("HSETEX")) : typeMemory(1, 300);
    repeat.byCommand[QStringLiteral("incrby")] = stat(10, (long long)(12 * factor));
    repeat.byCommand[QStringLiteral("set")] = stat(5, (long long)(10 * factor));
    repeat.events = 5;
    repeat.commands = 15;
    repeat.seconds = 0.005;
    repeat.eventsPerSecond = 1000 / factor;
    repeat.commandsPerSecond = 3000 / factor;
    repeat.latencyP50Usec = 100;
    repeat.latencyP99Usec = 250.5;
    repeat.cpuLoopMs = factor == 1 ? 1.81 : 2.43;
    repeat.passLoopMs = factor == 1 ? 1.84 : 2.51;
    repeat.passChaseNs = factor == 1 ? 162.5 : 181.25;
    repeat.retimed = factor == 1 ? 0 : 2;
    repeat.slowPasses = factor == 1 ? 0 : 1;
    repeat.errors = {{QStringLiteral("HSETEX: ERR unknown command"), factor == 1 ? 1 : 0}};
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
        QCOMPARE(left.repeats.size(), right->repeats.size());
        for (size_t i = 0; i < left.repeats.size(); ++i) {
            const RepeatResult &l = left.repeats[i];
            const RepeatResult &r = right->repeats[i];
            QCOMPARE(l.repeat, r.repeat);
            QCOMPARE(l.status, r.status);
            QCOMPARE(l.error, r.error);
            QCOMPARE(l.keys, r.keys);
            QCOMPARE(l.usedMemoryDelta, r.usedMemoryDelta);
            QCOMPARE(l.bytesPerKey, r.bytesPerKey);
            QCOMPARE(l.byType.size(), r.byType.size());
            for (const auto &[name, type] : l.byType) {
                QVERIFY2(r.byType.count(name), qPrintable(name));
                const TypeMemory &other = r.byType.at(name);
                QCOMPARE(type.status, other.status);
                QCOMPARE(type.error, other.error);
                QCOMPARE(type.keys, other.keys);
                QCOMPARE(type.usedMemoryDelta, other.usedMemoryDelta);
                QCOMPARE(type.bytesPerKey, other.bytesPerKey);
                QCOMPARE(type.memoryUsageBytesPerKey, other.memoryUsageBytesPerKey);
                QVERIFY(type.encodings == other.encodings);
                QCOMPARE(type.commands.size(), other.commands.size());
            }
            QCOMPARE(l.byCommand.size(), r.byCommand.size());
            for (const auto &[name, command] : l.byCommand) {
                QCOMPARE(command.calls, r.byCommand.at(name).calls);
                QCOMPARE(command.usec, r.byCommand.at(name).usec);
            }
            QCOMPARE(l.events, r.events);
            QCOMPARE(l.commands, r.commands);
            QCOMPARE(l.seconds, r.seconds);
            QCOMPARE(l.eventsPerSecond, r.eventsPerSecond);
            QCOMPARE(l.commandsPerSecond, r.commandsPerSecond);
            QCOMPARE(l.latencyP50Usec, r.latencyP50Usec);
            QCOMPARE(l.latencyP99Usec, r.latencyP99Usec);
            QCOMPARE(l.cpuLoopMs, r.cpuLoopMs);
            QCOMPARE(l.passLoopMs, r.passLoopMs);
            QCOMPARE(l.passChaseNs, r.passChaseNs);
            QCOMPARE(l.retimed, r.retimed);
            QCOMPARE(l.slowPasses, r.slowPasses);
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

class TestBundleIo : public QObject {
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
        bundle.servers[0].repeats[1].bytesPerKey = 0.1 + 0.2;   // not exactly representable
        bundle.servers[0].repeats[1].status = QStringLiteral("incomplete");
        bundle.servers[0].repeats[1].byType[QStringLiteral("hsetex")].commands[QStringLiteral("hsetex")] = stat(1, 3);
        bundle.servers[1].status = QStringLiteral("failed");
        bundle.servers[1].error = QStringLiteral("exited with code 1: \"bad\" config\nline 2");
        bundle.servers[1].endpoint = true;
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

    void derivedNamesScriptsRelyOn()
    {
        const QJsonObject root = QJsonDocument::fromJson(bundleToJson(tinyBundle())).object();
        const QJsonObject memory = root[QStringLiteral("memory")][QStringLiteral("valkey-9.1.2")].toObject();
        QCOMPARE(memory[QStringLiteral("bytes_per_key")][QStringLiteral("overall")].toDouble(), 90.0);
        QCOMPARE(memory[QStringLiteral("bytes_per_key")][QStringLiteral("by_type")][QStringLiteral("counter")].toDouble(), 72.0);
        const QJsonObject old = root[QStringLiteral("memory")][QStringLiteral("valkey-8.0.1")].toObject();
        QVERIFY(old[QStringLiteral("bytes_per_key")][QStringLiteral("by_type")][QStringLiteral("hsetex")].isNull());
        QCOMPARE(old[QStringLiteral("unsupported")][QStringLiteral("hsetex")].toString(), QStringLiteral("ERR unknown command 'HSETEX'"));
        QVERIFY(old[QStringLiteral("memory_usage")][QStringLiteral("differs_by_more_than_10_percent")][QStringLiteral("counter")].toBool());
        const QJsonObject commands = root[QStringLiteral("commands")][QStringLiteral("valkey-8.0.1")].toObject();
        QCOMPARE(commands[QStringLiteral("usec_per_call")][QStringLiteral("overall")].toDouble(), 22.0 / 15.0);
        QCOMPARE(commands[QStringLiteral("usec_per_call")][QStringLiteral("by_command")][QStringLiteral("incrby")].toDouble(), 1.2);
        QCOMPARE(commands[QStringLiteral("usec_per_event")].toDouble(), 4.4);
        QCOMPARE(root[QStringLiteral("servers")][0][QStringLiteral("id")].toString(), QStringLiteral("valkey-8.0.1"));
        QCOMPARE(root[QStringLiteral("workload")][QStringLiteral("events")].toInt(), 5);
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

    void malformedJsonNamesFileAndByte()
    {
        const Outcome<ResultsBundle> loaded = bundleFromJson("{\"schema\": \"versus.results/1\",\n \"created\": }",
                                                             QStringLiteral("broken.json"));
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().startsWith(QStringLiteral("broken.json: malformed JSON at byte 44")), qPrintable(loaded.error()));
    }

    void wrongTypesNameTheJsonPath_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("events") << QByteArray("\"events\": 5,\n    \"commands\": 15,\n    \"types\"")
                                << QByteArray("\"events\": \"5\",\n    \"commands\": 15,\n    \"types\"")
                                << "t.json: $.workload.events: expected an integer, got string";
        QTest::newRow("repeat keys") << QByteArray("\"keys\": 5,") << QByteArray("\"keys\": 5.5,")
                                     << "t.json: $.runs[\"valkey-8.0.1\"][0].keys: expected an integer, got number";
        QTest::newRow("command calls") << QByteArray("\"calls\": 10,") << QByteArray("\"calls\": null,")
                                       << "t.json: $.runs[\"valkey-8.0.1\"][0].by_command.incrby.calls: expected an integer, got null";
        QTest::newRow("servers") << QByteArray("\"servers\": [") << QByteArray("\"servers\": 3, \"x\": [")
                                 << "t.json: $.servers: expected an array, got number";
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

    void csvRows()
    {
        const QString expected = QStringLiteral(
            "server,metric,category,value,min,max,repeats\n"
            "valkey-8.0.1,bytes_per_key,overall,100,100,100,1\n"
            "valkey-8.0.1,bytes_per_key,counter,80,80,80,1\n"
            "valkey-8.0.1,bytes_per_key,sum,120,120,120,1\n"
            "valkey-8.0.1,bytes_per_key,hsetex,,,,0\n"
            "valkey-8.0.1,usec_per_call,overall,1.466666667,1.466666667,1.466666667,1\n"
            "valkey-8.0.1,usec_per_call,incrby,1.2,1.2,1.2,1\n"
            "valkey-8.0.1,usec_per_call,set,2,2,2,1\n"
            "valkey-8.0.1,usec_per_event,overall,4.4,4.4,4.4,1\n"
            "valkey-8.0.1,events_per_second,overall,1000,1000,1000,1\n"
            "valkey-8.0.1,commands_per_second,overall,3000,3000,3000,1\n"
            "valkey-9.1.2,bytes_per_key,overall,90,90,90,1\n"
            "valkey-9.1.2,bytes_per_key,counter,72,72,72,1\n"
            "valkey-9.1.2,bytes_per_key,sum,108,108,108,1\n"
            "valkey-9.1.2,bytes_per_key,hsetex,300,300,300,1\n"
            "valkey-9.1.2,usec_per_call,overall,0.7333333333,0.7333333333,0.7333333333,1\n"
            "valkey-9.1.2,usec_per_call,incrby,0.6,0.6,0.6,1\n"
            "valkey-9.1.2,usec_per_call,set,1,1,1,1\n"
            "valkey-9.1.2,usec_per_event,overall,2.2,2.2,2.2,1\n"
            "valkey-9.1.2,events_per_second,overall,2000,2000,2000,1\n"
            "valkey-9.1.2,commands_per_second,overall,6000,6000,6000,1\n");
        QCOMPARE(bundleToCsv(tinyBundle()), expected);
    }

    void markdownTable()
    {
        const QString expected = QStringLiteral(
            "Workload: tiny, 5 events, 15 commands. Baseline: valkey-8.0.1.\n"
            "\n"
            "### Memory per stored attribute (bytes per key)\n"
            "\n"
            "| Attribute | valkey-8.0.1 | valkey-9.1.2 |\n"
            "|---|---:|---:|\n"
            "| All attributes | 100.0 | 90.0 (−10.0%) |\n"
            "| counter | 80.0 | 72.0 (−10.0%) |\n"
            "| sum | 120.0 | 108.0 (−10.0%) |\n"
            "| hsetex | unsupported | 300.0 |\n"
            "\n"
            "### Server time per command (µs per call)\n"
            "\n"
            "| Command | valkey-8.0.1 | valkey-9.1.2 |\n"
            "|---|---:|---:|\n"
            "| All commands | 1.47 | 0.73 (−50.0%) |\n"
            "| incrby | 1.20 | 0.60 (−50.0%) |\n"
            "| set | 2.00 | 1.00 (−50.0%) |\n"
            "| µs per event | 4.40 | 2.20 (−50.0%) |\n");
        QCOMPARE(bundleToMarkdown(tinyBundle()), expected);
    }

    // With repeats the table ends with how far they agree: the range (and 95% interval) of
    // µs per command, and whether memory moved at all.
    void markdownReportsTheSpreadAcrossRepeats()
    {
        ResultsBundle bundle = tinyBundle();
        bundle.repeats = 5;
        std::vector<double> usecOf912;
        for (ServerRun &run : bundle.servers) {
            const RepeatResult first = run.repeats.front();
            run.repeats.clear();
            for (int r = 0; r < 5; ++r) {
                RepeatResult repeat = first;
                repeat.repeat = r;
                if (run.version == QLatin1String("9.1.2")) {
                    repeat.byCommand[QStringLiteral("incrby")].usec = 6 + r;
                    if (r == 4)
                        repeat.byType[QStringLiteral("sum")].bytesPerKey *= 1.01;
                    usecOf912.push_back(repeat.usecPerCall());
                }
                run.repeats.push_back(repeat);
            }
        }
        const Spread interval = spreadOf(usecOf912);
        QVERIFY(interval.hasInterval());
        const QString markdown = bundleToMarkdown(bundle);
        const QString expected = QStringLiteral(
            "\n### Across 5 repeats\n"
            "\n"
            "| | valkey-8.0.1 | valkey-9.1.2 |\n"
            "|---|---:|---:|\n"
            "| µs per command, min–max | 1.47–1.47 | 0.73–1.00 |\n"
            "| µs per command, 95% interval | 1.47–1.47 | %1–%2 |\n"
            // (11 + r) / 22 in repeat r: mean 0.591, t = 2.776, s / √5 = 0.0321.
            "| µs per command against valkey-8.0.1 in the same repeat, 95% interval | baseline | \u221249.8% to \u221232.0% |\n"
            "| memory per attribute, spread | identical | 0.00% (sum: 1.00%) |\n")
            .arg(formatFigure(interval.ciLow), formatFigure(interval.ciHigh));
        const QString pairing = QStringLiteral(
            "\nThe change against valkey-8.0.1 is taken repeat by repeat: the versions of a repeat are timed side by "
            "side, so a change in the machine's own speed between repeats drops out of it.\n");
        QVERIFY2(markdown.endsWith(expected + pairing), qPrintable(markdown));
        QVERIFY(!bundleToMarkdown(tinyBundle()).contains(QLatin1String("Across")));

        // Timed again because the machine was slow: said once, for every server.
        for (ServerRun &run : bundle.servers) {
            run.repeats[1].retimed = 1;
            run.repeats[3].retimed = 2;
            run.repeats[3].slowPasses = 1;
        }
        QVERIFY2(bundleToMarkdown(bundle).endsWith(
                     expected + QStringLiteral("\nTimed passes run again because the machine ran slower than usual "
                                               "during them: 3. Still slower than usual after every attempt, and "
                                               "kept: repeat 4.\n") + pairing),
                 qPrintable(bundleToMarkdown(bundle)));
        QVERIFY(!markdown.contains(QLatin1String("run again")));
    }

    // The machine's speed moves every version of a repeat together. Here it swings by 30%
    // between repeats while 9.1.2 always takes exactly 80% of 8.0.1's time: each version's own
    // interval is wide, the change against the baseline is exact.
    void markdownPairsTheChangeByRepeat_data()
    {
        QTest::addColumn<int>("repeats");
        QTest::addColumn<QString>("row");
        QTest::newRow("5 repeats: 95% interval")
            << 5 << QStringLiteral("| µs per command against valkey-8.0.1 in the same repeat, 95% interval | baseline | \u221220.0% to \u221220.0% |\n");
        QTest::newRow("3 repeats: min–max")
            << 3 << QStringLiteral("| µs per command against valkey-8.0.1 in the same repeat, min–max | baseline | \u221220.0% to \u221220.0% |\n");
    }

    void markdownPairsTheChangeByRepeat()
    {
        QFETCH(int, repeats);
        QFETCH(QString, row);
        const double machine[] = {1.0, 1.3, 0.9, 1.15, 1.0};
        ResultsBundle bundle = tinyBundle();
        bundle.repeats = repeats;
        for (ServerRun &run : bundle.servers) {
            const RepeatResult first = run.repeats.front();
            run.repeats.clear();
            const long long usec = run.version == QLatin1String("9.1.2") ? 8000 : 10000;
            for (int r = 0; r < repeats; ++r) {
                RepeatResult repeat = first;
                repeat.repeat = r;
                repeat.byCommand = {{QStringLiteral("set"), stat(1000, (long long)(usec * machine[r]))}};
                run.repeats.push_back(repeat);
            }
        }
        const QString markdown = bundleToMarkdown(bundle);
        QVERIFY2(markdown.contains(row), qPrintable(markdown));
        // Each version on its own spreads with the machine.
        QVERIFY2(markdown.contains(QStringLiteral("| µs per command, min–max | 9.00–13.0 | 7.20–10.4 |")), qPrintable(markdown));

        // A repeat the baseline did not complete is left out of the pairing, not paired with another.
        for (ServerRun &run : bundle.servers) {
            if (run.version == QLatin1String("8.0.1"))
                run.repeats[1].status = QStringLiteral("failed");
            else
                run.repeats[2].byCommand[QStringLiteral("set")].usec = 8100;   // 90% of the baseline's 9000
        }
        const QString paired = bundleToMarkdown(bundle);
        QVERIFY2(paired.contains(QStringLiteral("in the same repeat, min–max | baseline | \u221220.0% to \u221210.0% |")),
                 qPrintable(paired));

        // A repeat that counted no command time is not a −100% change.
        const ServerRun *base = bundle.server(QStringLiteral("valkey-8.0.1"));
        ServerRun silent = *bundle.server(QStringLiteral("valkey-9.1.2"));
        QCOMPARE(pairedRatioSpread(silent, *base).n, repeats - 1);
        silent.repeats[0].byCommand.clear();
        const Spread ratio = pairedRatioSpread(silent, *base);
        QCOMPARE(ratio.n, repeats - 2);
        QCOMPARE(ratio.max, 0.9);   // repeat 2, where 9.1.2 took 90% of the baseline's time
    }
};

QTEST_GUILESS_MAIN(TestBundleIo)
#include "tst_bundleio.moc"
