// `versus run --sweep batch=…`: the pipeline depth swept for any workload (bad depths are
// refused in tst_sweep's table). A real sweep runs the same commands at each depth, records each
// point's events per pipeline, and draws the time sweep charts.

#include "bundlejson.h"
#include "exportoptions.h"
#include "sweepbundle.h"
#include "versuscli.h"

#include <QImage>
#include <QtTest>

class BatchSweepTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // Two depths of one small workload: the points differ in events per pipeline only, so each
    // sends exactly the same commands; the time sweep charts are drawn at a preset's size.
    void batchSweepRunsEachDepth()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                             QStringLiteral("--set"), QStringLiteral("keys=300"), QStringLiteral("--sweep"),
                                             QStringLiteral("batch=1,16"), QStringLiteral("--servers"), server.label,
                                             QStringLiteral("--out"), bundlePath},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY2(r.err.contains(QLatin1String("batch=1 (1 of 2)")) && r.err.contains(QLatin1String("batch=16 (2 of 2)")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("### Sweep: server time per command inside the commands against batch")), r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->sweep.parameter, QStringLiteral("batch"));
        QCOMPARE(bundle->sweep.points.size(), size_t(2));
        const std::map<QString, std::map<QString, long long>> expectedCalls{
            {QStringLiteral("set-ex"), {{QStringLiteral("set"), 300}}},
            {QStringLiteral("hsetex"), {{QStringLiteral("hsetex"), 300}}},
            {QStringLiteral("hset-hexpire"), {{QStringLiteral("hset"), 300}, {QStringLiteral("hexpire"), 300}}}};
        const std::vector<int> depths{1, 16};
        for (size_t i = 0; i < depths.size(); ++i) {
            const SweepPoint &point = bundle->sweep.points[i];
            QCOMPARE(point.eventsPerBatch, depths[i]);
            QCOMPARE(sweepPointBundle(bundle.value(), int(i)).eventsPerBatch, depths[i]);
            QCOMPARE(point.workload.parameters.at(QStringLiteral("keys")), QStringLiteral("300"));
            QCOMPARE(point.servers.size(), size_t(1));
            const RepeatResult &repeat = point.servers.front().repeats.front();
            std::map<QString, std::map<QString, long long>> calls;
            for (const auto &[type, memory] : repeat.byType) {
                QVERIFY2(memory.timing, qPrintable(type));
                for (const auto &[command, stat] : memory.timing->byCommand)
                    calls[type][command] = stat.calls;
            }
            QCOMPARE(calls, expectedCalls);
        }
        exportTimeSweepCharts(cli, bundlePath);
    }

private:
    static void exportTimeSweepCharts(VersusCli &cli, const QString &bundlePath)
    {
        const SizePreset &preset = sizePresets().front();
        const QString dir = cli.path(QStringLiteral("export"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundlePath, QStringLiteral("--export-dir"), dir,
                                             QStringLiteral("--preset"), preset.name});
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        for (const char *name : {"sweep-time-inside-commands.png", "sweep-time-in-all.png"}) {
            const QImage image(QDir(dir).filePath(QLatin1String(name)));
            QVERIFY2(!image.isNull(), name);
            QCOMPARE(image.size(), preset.size);
        }
    }
};

QTEST_MAIN(BatchSweepTest)
#include "tst_batchsweep.moc"
