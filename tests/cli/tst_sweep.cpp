// `versus run --sweep`: bad sweeps refused before any server starts, and a real sweep on two
// servers giving one bundle whose sweep charts export at every preset.

#include "bundlejson.h"
#include "exportoptions.h"
#include "sweepbundle.h"
#include "versuscli.h"

#include <QImage>
#include <QtTest>

class SweepTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void badSweepIsRefusedBeforeAnyServerStarts_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString sweep = QStringLiteral("--sweep");
        QTest::newRow("unknown parameter") << QStringList{sweep, QStringLiteral("value-sise=16,64")}
                                           << QStringLiteral("--sweep: unknown parameter 'value-sise' of hash-ttl (valid: keys, value-size, ttl, hash-tag, batch)");
        QTest::newRow("a non-number") << QStringList{sweep, QStringLiteral("value-size=16,big")}
                                      << QStringLiteral("--sweep value-size: 'big' is not a number");
        QTest::newRow("one point") << QStringList{sweep, QStringLiteral("value-size=16")}
                                   << QStringLiteral("--sweep value-size: a sweep needs at least two values, got one (16)");
        QTest::newRow("also given with --set")
            << QStringList{sweep, QStringLiteral("value-size=16,64"), QStringLiteral("--set"), QStringLiteral("value-size=32")}
            << QStringLiteral("--sweep value-size: also given as --set value-size=32; give it one way");
        QTest::newRow("a value twice") << QStringList{sweep, QStringLiteral("keys=100,200,100")}
                                       << QStringLiteral("--sweep keys: 100 is given twice");
        QTest::newRow("a value twice, spelled two ways") << QStringList{sweep, QStringLiteral("value-size=16,64,016")}
                                                         << QStringLiteral("--sweep value-size: 016 and 16 are the same value (the "
                                                                           "workload reads both as 16): give each once");
        QTest::newRow("two sweeps") << QStringList{sweep, QStringLiteral("keys=100,200"), sweep, QStringLiteral("ttl=60,120")}
                                    << QStringLiteral("--sweep: one parameter at a time, got 2 (keys=100,200, ttl=60,120)");
        QTest::newRow("no values") << QStringList{sweep, QStringLiteral("value-size")}
                                   << QStringLiteral("--sweep: expected name=value,value,…, got 'value-size'");
        QTest::newRow("a value the workload refuses") << QStringList{sweep, QStringLiteral("value-size=16,0")}
                                                      << QStringLiteral("--sweep value-size=0: hash-ttl: parameter value-size");
        QTest::newRow("batch: with --batch") << QStringList{sweep, QStringLiteral("batch=1,16"), QStringLiteral("--batch"), QStringLiteral("4")}
                                      << QStringLiteral("--sweep batch and --batch: both give the events per pipeline; give one of them");
        QTest::newRow("batch: one value") << QStringList{sweep, QStringLiteral("batch=16")}
                                   << QStringLiteral("--sweep batch: a sweep needs at least two values, got one (16)");
        QTest::newRow("batch: zero") << QStringList{sweep, QStringLiteral("batch=0,16")}
                              << QStringLiteral("--sweep batch: '0' is not a whole number of events per pipeline from 1 to 10000");
        QTest::newRow("batch: a word") << QStringList{sweep, QStringLiteral("batch=1,deep")}
                                << QStringLiteral("--sweep batch: 'deep' is not a whole number of events per pipeline from 1 to 10000");
        QTest::newRow("batch: past the most") << QStringList{sweep, QStringLiteral("batch=1,10001")}
                                       << QStringLiteral("--sweep batch: '10001' is not a whole number of events per pipeline from 1 to 10000");
        QTest::newRow("batch: a fraction") << QStringList{sweep, QStringLiteral("batch=1,2.5")}
                                    << QStringLiteral("--sweep batch: '2.5' is not a whole number of events per pipeline from 1 to 10000");
    }

    void badSweepIsRefusedBeforeAnyServerStarts()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const VersusCli::Result r = cli.run(QStringList{QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                                        QStringLiteral("--servers"), server.label, QStringLiteral("--out"),
                                                        cli.path(QStringLiteral("bundle.json"))}
                                            + arguments);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.startsWith(QStringLiteral("versus run: ") + message), r.describe());
        // Nothing but the message: no run was announced, no server started, nothing written.
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(cli.path(QStringLiteral("bundle.json"))));
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
    }

    // The sweep of the issue, on two servers: one bundle, a point per value each with its own
    // run and exact key counts, and both sweep charts at every preset's exact size.
    void sweepRunsEveryPointIntoOneBundle()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.0.");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                             QStringLiteral("--sweep"), QStringLiteral("value-size=16,64,256"), QStringLiteral("--set"),
                                             QStringLiteral("keys=2000"), QStringLiteral("--servers"), older.label + "," + newer.label,
                                             QStringLiteral("--out"), bundlePath},
                                            600000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        for (const char *point : {"value-size=16 (1 of 3)", "value-size=64 (2 of 3)", "value-size=256 (3 of 3)"})
            QVERIFY2(r.err.contains(QLatin1String(point)), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("### Sweep: memory per key against value-size")), r.describe());
        QCOMPARE(QFileInfo(bundlePath).exists(), true);
        checkBundle(bundlePath, older.label, newer.label);
        if (QTest::currentTestFailed())
            return;
        exportAtEveryPreset(cli, bundlePath);
    }

    // Ctrl-C during the second point: that run stops as any run does, no further point starts,
    // and the bundle keeps the finished point and the stopped one, marked incomplete.
    void interruptEndsTheSweepWithTheFinishedPoints()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("partial.json"));
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                   QStringLiteral("hash-ttl"), QStringLiteral("--sweep"), QStringLiteral("keys=200,300000,400"),
                   QStringLiteral("--out"), bundlePath});
        QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("keys=300000 \\(2 of 3\\)[\\s\\S]*replaying  *\\d+ ev/s")), 120000),
                 qPrintable(cli.errSoFar()));
        cli.signal(SIGINT);
        const VersusCli::Result r = cli.finish(60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
        QVERIFY(!r.err.contains(QLatin1String("keys=400 (3 of 3)")));
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QVERIFY(!bundle->complete);
        QCOMPARE(bundle->sweep.points.size(), size_t(2));
        QVERIFY(bundle->sweep.points[0].complete);
        QVERIFY(!bundle->sweep.points[1].complete);
        QCOMPARE(bundle->sweep.points[0].servers.front().repeats.front().byType.at(QStringLiteral("set-ex")).keys, 200LL);
        // Not every point ran: the last one that did is shown.
        QCOMPARE(bundle->sweep.shown, 1);
    }

private:
    static void checkBundle(const QString &path, const QString &older, const QString &newer)
    {
        const Outcome<ResultsBundle> bundle = loadBundle(path);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QVERIFY(bundle->isSweep());
        QCOMPARE(bundle->sweep.parameter, QStringLiteral("value-size"));
        QCOMPARE(bundle->sweep.points.size(), size_t(3));
        // 120, the workload's own value, was not swept: the last point is shown.
        QCOMPARE(bundle->sweep.shown, 2);
        QCOMPARE(bundle->workload.parameters.at(QStringLiteral("value-size")), QStringLiteral("256"));
        const QStringList values{QStringLiteral("16"), QStringLiteral("64"), QStringLiteral("256")};
        for (size_t i = 0; i < 3; ++i) {
            const SweepPoint &point = bundle->sweep.points[i];
            QCOMPARE(point.value, values[int(i)]);
            QCOMPARE(point.workload.parameters.at(QStringLiteral("value-size")), values[int(i)]);
            QCOMPARE(point.workload.parameters.at(QStringLiteral("keys")), QStringLiteral("2000"));
            QVERIFY(point.complete);
            const ResultsBundle run = sweepPointBundle(bundle.value(), int(i));
            // One run per point: one repeat per server, as asked.
            QCOMPARE(run.server(older)->repeats.size(), size_t(1));
            QCOMPARE(run.server(newer)->repeats.size(), size_t(1));
            const RepeatResult &oldRepeat = run.server(older)->repeats.front();
            const RepeatResult &newRepeat = run.server(newer)->repeats.front();
            QCOMPARE(oldRepeat.byType.at(QStringLiteral("set-ex")).keys, 2000LL);
            QCOMPARE(oldRepeat.byType.at(QStringLiteral("hsetex")).status, TypeStatus::Unsupported);
            for (const char *type : {"hsetex", "set-ex", "hset-hexpire"})
                QCOMPARE(newRepeat.byType.at(QLatin1String(type)).keys, 2000LL);
        }
    }

    static void exportAtEveryPreset(VersusCli &cli, const QString &bundlePath)
    {
        for (const SizePreset &preset : sizePresets()) {
            const QString dir = cli.path(QStringLiteral("export-") + preset.name);
            const VersusCli::Result r = cli.run({QStringLiteral("export"), bundlePath, QStringLiteral("--export-dir"), dir,
                                                 QStringLiteral("--preset"), preset.name});
            QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
            for (const char *name : {"sweep-memory-per-key.png", "sweep-ratio.png", "memory-per-attribute.png"}) {
                const QImage image(QDir(dir).filePath(QLatin1String(name)));
                QVERIFY2(!image.isNull(), qPrintable(preset.name + QLatin1Char('/') + QLatin1String(name)));
                QCOMPARE(image.size(), preset.size);
                QVERIFY2(r.out.contains(QDir(dir).filePath(QLatin1String(name))), r.describe());
            }
        }
    }
};

QTEST_MAIN(SweepTest)
#include "tst_sweep.moc"
