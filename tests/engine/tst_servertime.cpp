// The server's own time over a timed pass (INFO stats and cpu at its edges, serverclock.h) on
// real servers: what is read covers the workload's commands and none of Versus's own reads
// (the edges' INFO, the live probe's), and a counter the version does not report stays absent.
// No time's size or direction is asserted.

#include "eventsworkload.h"
#include "figures.h"
#include "runcontroller.h"
#include "servertesthelpers.h"

#include <QSignalSpy>
#include <QtTest>

class TestServerTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void serverTimeLeavesVersusOwnReadsOut()
    {
        VERSUS_REQUIRE_SERVER(valkey, "valkey-9.1.");
        VERSUS_REQUIRE_SERVER(redis, "redis-7.0.");
        const std::shared_ptr<const Workload> workload = counterEvents();
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy changed(&controller, &RunController::resultsChanged);
        RunRequest request;
        request.servers = {valkey, redis};
        request.workload = workload;
        request.probeIntervalMs = 10;
        controller.start(request);
        QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 120000));
        const ResultsBundle results = finished.first().first().value<ResultsBundle>();
        QVERIFY(results.complete);

        // The live probe read the servers during the timed pass: its reads were there to leave out.
        int probes = 0;
        for (const QList<QVariant> &arguments : changed) {
            for (const ServerRun &server : arguments.first().value<BundleSnapshot>()->servers) {
                probes += !server.repeats.empty() && server.repeats.front().unfinishedTimedPass
                    && server.repeats.front().timing.commands > 0;
            }
        }
        QVERIFY2(probes > 0, "no live figures arrived during the timed pass");

        for (const ServerRun &server : results.servers) {
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
            const PassTiming &timing = server.repeats.front().timing;
            QCOMPARE(timing.commands, workload->describe().commands);
            QCOMPARE(timing.totalCalls(), timing.commands);
            QVERIFY2(timing.serverTime, qPrintable(server.id));
            const ServerClock &clock = *timing.serverTime;
            // The server counted exactly the commands sent between the edges, once Versus's own
            // (the opening INFO, the live probe's INFO, CLIENT INFO and DBSIZE) are taken off.
            QVERIFY2(clock.commandsProcessed, qPrintable(server.id));
            QCOMPARE(*clock.commandsProcessed, timing.commands);
            QVERIFY2(clock.mainThreadCpuUsec, qPrintable(server.id));
            const bool loopReported = server.product == QLatin1String("valkey");
            QCOMPARE(clock.eventLoopUsec.has_value(), loopReported);
            QCOMPARE(clock.eventLoopCommandUsec.has_value(), loopReported);
            QCOMPARE(clock.eventLoopCycles.has_value(), loopReported);
        }

        const Figures figures(results);
        const FigureTable loop = figures.serverTime(Measure::EventLoopPerCall);
        const Figure &redisLoop = loop.at(0, redis.label);
        QCOMPARE(redisLoop.state, FigureState::Absent);
        QCOMPARE(redisLoop.note, QStringLiteral("not reported by this version"));
        QVERIFY(loop.at(0, valkey.label).hasValue());
        for (const ServerSpec &spec : {valkey, redis})
            QVERIFY(figures.serverTime(Measure::MainThreadCpuPerCall).at(0, spec.label).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestServerTime)
#include "tst_servertime.moc"
