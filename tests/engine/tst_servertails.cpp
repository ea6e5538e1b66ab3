// Server-side tails per command (passtails.h) on real servers: LATENCY HISTOGRAM read at a timed
// pass's edges gives each command's calls per bucket, exactly the workload's calls; Versus's own
// CONFIG SET and LATENCY calls are no command of the workload; an endpoint whose tracking Versus
// turned off, or that refuses LATENCY, completes with the tails unavailable and the reason. No
// time's size or direction is asserted.

#include "eventsworkload.h"
#include "figures.h"
#include "foreignserver.h"
#include "runcontroller.h"
#include "servercatalog.h"
#include "servertesthelpers.h"

#include <QSignalSpy>
#include <QtTest>

namespace {

ResultsBundle runTails(const std::vector<ServerSpec> &servers)
{
    RunController controller;
    QSignalSpy finished(&controller, &RunController::runFinished);
    RunRequest request;
    request.servers = servers;
    request.workload = counterEvents();
    request.allowFlush = true;
    controller.start(request);
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 180000))
        return ResultsBundle();
    return finished.first().first().value<ResultsBundle>();
}

ServerSpec tailsEndpoint(const ForeignServer &server)
{
    return ServerCatalog::parseEndpoint(server.hostPort()).value();
}

} // namespace

class TestServerTails : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyVersionGivesTheWorkloadsTails()
    {
        VERSUS_REQUIRE_SERVER(valkey80, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(valkey81, "valkey-8.1.");
        VERSUS_REQUIRE_SERVER(valkey91, "valkey-9.1.");
        VERSUS_REQUIRE_SERVER(redis70, "redis-7.0.");
        VERSUS_REQUIRE_SERVER(redis80, "redis-8.0.");
        const ResultsBundle results = runTails({valkey80, valkey81, valkey91, redis70, redis80});
        QVERIFY(results.complete);
        QCOMPARE(results.servers.size(), size_t(5));
        const Figures figures(results);
        const FigureTable p50 = figures.serverTails(Measure::ServerP50Usec);
        const FigureTable p999 = figures.serverTails(Measure::ServerP999Usec);
        for (const ServerRun &server : results.servers) {
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
            const PassTiming &timing = server.repeats.front().timing;
            // The workload's commands alone: Versus's CONFIG SET latency-tracking and LATENCY
            // HISTOGRAM at the edges are its own, not the workload's, and nothing is left over.
            QCOMPARE(timing.byCommand.size(), size_t(2));
            QCOMPARE(timing.byCommand.count(QStringLiteral("incrby")), size_t(1));
            QCOMPARE(timing.byCommand.count(QStringLiteral("set")), size_t(1));
            QVERIFY2(server.repeats.front().countedNotSent.empty(), qPrintable(server.id));
            const ServerTails &tails = timing.tails;
            QVERIFY2(tails.unavailable.isEmpty(), qPrintable(server.id + QLatin1String(": ") + tails.unavailable));
            QVERIFY2(tails.commandUnavailable.empty(), qPrintable(server.id));
            QCOMPARE(tails.byCommand.size(), size_t(2));
            QCOMPARE(tails.byCommand.at(QStringLiteral("incrby")).calls(), 3000LL);
            QCOMPARE(tails.byCommand.at(QStringLiteral("set")).calls(), 1000LL);
            QVERIFY2(tails.byCommand.at(QStringLiteral("set")).problem().isEmpty(), qPrintable(server.id));
            // Every percentile is one of the server's bucket bounds, written as one.
            for (const FigureTable *table : {&p50, &p999}) {
                const Figure &incr = table->at(table->categoryIndex(QStringLiteral("incrby")), server.id);
                QVERIFY2(incr.hasValue(), qPrintable(server.id + QLatin1String(": ") + incr.note));
                bool isBound = false;
                for (const auto &bucket : tails.byCommand.at(QStringLiteral("incrby")).counts)
                    isBound = isBound || double(bucket.first) == incr.value;
                QVERIFY2(isBound, qPrintable(server.id));
                QVERIFY2(Figures::serverTailText(incr).startsWith(QStringLiteral("≤ ")), qPrintable(Figures::serverTailText(incr)));
            }
            // SET has 1,000 calls: enough for p99.9, whose bucket it then is.
            QVERIFY(p999.at(p999.categoryIndex(QStringLiteral("set")), server.id).hasValue());
        }
    }

    void endpointsSayWhyTheyHaveNoTails()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        // Its CONFIG works: Versus turns tracking off for the run, so no tails are read.
        ForeignServer open(spec);
        // CONFIG and LATENCY renamed away, as a managed service may: tracking stays on and the
        // histograms cannot be read.
        ForeignServer closed(spec, {QStringLiteral("--rename-command"), QStringLiteral("CONFIG"), QString(),
                                    QStringLiteral("--rename-command"), QStringLiteral("LATENCY"), QString()});
        // CONFIG renamed away only: tracking stays on, the histograms are read by difference.
        ForeignServer managed(spec, {QStringLiteral("--rename-command"), QStringLiteral("CONFIG"), QString()});
        QVERIFY2(open.start(), qPrintable(open.error()));
        QVERIFY2(closed.start(), qPrintable(closed.error()));
        QVERIFY2(managed.start(), qPrintable(managed.error()));
        const ResultsBundle results = runTails({tailsEndpoint(open), tailsEndpoint(closed), tailsEndpoint(managed)});
        QVERIFY(results.complete);
        QCOMPARE(results.servers.size(), size_t(3));
        for (const ServerRun &server : results.servers)
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
        const ServerTails &off = results.servers[0].repeats.front().timing.tails;
        QVERIFY(off.byCommand.empty());
        QVERIFY2(off.unavailable.startsWith(QStringLiteral("latency tracking is off")), qPrintable(off.unavailable));
        const ServerTails &refused = results.servers[1].repeats.front().timing.tails;
        QVERIFY(refused.byCommand.empty());
        QVERIFY2(refused.unavailable.contains(QStringLiteral("LATENCY HISTOGRAM refused")), qPrintable(refused.unavailable));
        const ServerTails &byDifference = results.servers[2].repeats.front().timing.tails;
        QVERIFY2(byDifference.unavailable.isEmpty(), qPrintable(byDifference.unavailable));
        QCOMPARE(byDifference.byCommand.at(QStringLiteral("incrby")).calls(), 3000LL);
        QCOMPARE(byDifference.byCommand.at(QStringLiteral("set")).calls(), 1000LL);
        // Every view says why: the figure is absent with the reason.
        const Figures figures(results);
        const FigureTable p99 = figures.serverTails(Measure::ServerP99Usec);
        const Figure &absent = p99.at(p99.categoryIndex(QStringLiteral("incrby")), results.servers[1].id);
        QVERIFY(!absent.hasValue());
        QVERIFY2(absent.note.contains(QStringLiteral("LATENCY HISTOGRAM refused")), qPrintable(absent.note));
    }
};

QTEST_GUILESS_MAIN(TestServerTails)
#include "tst_servertails.moc"
