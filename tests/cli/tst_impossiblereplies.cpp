// Replies no server gives, through a proxy that rewrites them in front of a real server (an
// endpoint, as a proxy or a managed service would stand): a used_memory past 64 bits is an
// error naming the server and the field, never a figure; a DBSIZE of another kind is an error
// naming the reply; a CONFIG GET * without latency-tracking leaves its state unknown, taken as
// on: the workload runs once before the first baseline (docs/MEASUREMENT.md, "Impossible readings").

#include "bundlejson.h"
#include "figures.h"
#include "foreignserver.h"
#include "rewritingproxy.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QtTest>

namespace {

QStringList smallRun(int port, const QString &bundlePath)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), QStringLiteral("127.0.0.1:%1").arg(port),
            QStringLiteral("--allow-flush"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
            QStringLiteral("keys=500"), QStringLiteral("--out"), bundlePath};
}

} // namespace

class ImpossibleRepliesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // used_memory:10^23 read as 0 and printed −35.8 bytes per key as measured; a DBSIZE answered
    // as text read as 0 keys and left every memory figure "—" with the verdict ok.
    void aReplyNoServerGivesIsAnErrorNotAFigure_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("said");
        QTest::newRow("used_memory 10^23") << QStringLiteral("INFO MEMORY")
                                           << QStringLiteral("INFO memory used_memory is \"100000000000000000000000\", not a "
                                                             "count from 0 to 9223372036854775807");
        QTest::newRow("DBSIZE as text") << QStringLiteral("DBSIZE")
                                        << QStringLiteral("DBSIZE answered the bulk string \"many\", not a count of keys");
    }
    void aReplyNoServerGivesIsAnErrorNotAFigure()
    {
        QFETCH(QString, command);
        QFETCH(QString, said);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        RewritingProxy proxy(server.port(), command == QLatin1String("DBSIZE") ? RewritingProxy::replyTo("DBSIZE", "$4\r\nmany\r\n")
                                                                : RewritingProxy::infoField("used_memory", "100000000000000000000000"));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(smallRun(proxy.port(), bundlePath), 120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        QVERIFY(proxy.rewritten() > 0);
        const QString name = QStringLiteral("127.0.0.1:%1").arg(proxy.port());
        QVERIFY2(r.err.contains(name) && r.err.contains(said), r.describe());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const Figures figures(bundle.value());
        const QString id = bundle->servers.front().id;
        QVERIFY(figures.summary(id).verdict != ServerVerdict::Completed);
        const FigureTable memory = figures.memory();
        for (int c = 0; c < int(memory.categories.size()); ++c) {
            QCOMPARE(memory.at(c, id).state, FigureState::Failed);
            QVERIFY(!memory.at(c, id).settled());
        }
        // The run put back what it changed: latency tracking is on again.
        QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    }

    // A proxy that filters CONFIG left latency-tracking out of CONFIG GET *: taken as "off", no
    // warm-up ran and every memory figure read 2.6–4× too high with no caveat.
    void latencyTrackingLeftOutIsTakenAsOn()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        RewritingProxy proxy(server.port(), RewritingProxy::withoutSetting("latency-tracking"));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(smallRun(proxy.port(), bundlePath), 120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(proxy.rewritten() > 0);
        QVERIFY2(r.err.contains(QStringLiteral("latency tracking stays on: the workload runs once before the first baseline")),
                 r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("did not list latency-tracking in its settings and was measured around it: its "
                                               "server time is the difference of commandstats over each pass")),
                 r.describe());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun &run = bundle->servers.front();
        QCOMPARE(run.limits.trackingLeftOn, MeasurementLimits::trackingUnknownText());
        QVERIFY(run.limits.statsByDifference());
        // Its state unknown, it was never set, so nothing was to be put back.
        QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
        const Figures figures(bundle.value());
        QCOMPARE(figures.memory().at(0, run.id).state, FigureState::Measured);
    }
};

QTEST_GUILESS_MAIN(ImpossibleRepliesTest)
#include "tst_impossiblereplies.moc"
