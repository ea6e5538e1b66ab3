// Where the server's time per command goes, on real servers (upstream Valkey 8.0.1, Debian's
// 9.1.2, standalone and as a cluster of three primaries): the parts of the event loop's time per
// command add up to it, and the loop's own time in commands agrees with commandstats' time inside
// them within 5% of the loop time, so neither counts Versus's own reads and the other does not.
// The server processed exactly the commands sent. Accounting only: no time's size or direction
// is asserted.

#include "eventsworkload.h"
#include "figures.h"
#include "runcontroller.h"
#include "servertesthelpers.h"
#include "timeexplanation.h"
#include "topologyspecs.h"

#include <QSignalSpy>
#include <QtTest>
#include <cmath>

namespace {

// Per event an INCRBY, an SADD and, every fourth event, a SET with a TTL, sent 64 events per
// pipeline, so the loop's work around the commands is shared over many commands.
std::shared_ptr<const Workload> pipelinedEvents()
{
    WorkloadInfo info;
    info.name = QStringLiteral("pipelined-events");
    info.events = 20000;
    info.commands = 2 * info.events + (info.events + 3) / 4;
    info.types = {QStringLiteral("counter"), QStringLiteral("set"), QStringLiteral("string")};
    return std::make_shared<EventsWorkload>(info, [](long long i, EventCommands &out) {
        out.add("counter", {"INCRBY", "n:" + std::to_string(i % 500), "2"});
        out.add("set", {"SADD", "u:" + std::to_string(i % 300), std::to_string(i % 97)});
        if (i % 4 == 0)
            out.add("string", {"SET", "s:" + std::to_string(i % 700), "value", "EX", "900"});
    });
}

ResultsBundle runOnce(const std::vector<ServerSpec> &servers, const std::shared_ptr<const Workload> &workload)
{
    RunController controller;
    QSignalSpy finished(&controller, &RunController::runFinished);
    RunRequest request;
    request.servers = servers;
    request.workload = workload;
    request.eventsPerBatch = 64;
    request.probeIntervalMs = 20;
    controller.start(request);
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 240000))
        return ResultsBundle();
    return finished.first().first().value<ResultsBundle>();
}

} // namespace

class TestTimeParts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partsAddUpToTheLoopTime_data()
    {
        QTest::addColumn<int>("primaries");
        QTest::newRow("standalone") << 0;
        QTest::newRow("cluster of 3") << 3;
    }

    void partsAddUpToTheLoopTime()
    {
        QFETCH(int, primaries);
        const std::optional<ServerSpec> upstream = ServerTestHelpers::findBuiltServer(QStringLiteral("valkey-8.0.1-upstream"));
        if (!upstream)
            QSKIP("no upstream build valkey-8.0.1-upstream in the cache (versus build)");
        VERSUS_REQUIRE_SERVER(debian, "valkey-9.1.");
        Topology topology;
        topology.primaries = primaries;
        const Outcome<std::vector<ServerSpec>> servers = specsInTopologies({*upstream, debian}, {topology});
        QVERIFY2(servers, qPrintable(servers.error()));
        const std::shared_ptr<const Workload> workload = pipelinedEvents();
        const ResultsBundle results = runOnce(servers.value(), workload);
        QVERIFY2(results.complete, "the run did not finish");
        const Figures figures(results);
        const FigureTable parts = figures.timeParts();
        for (const ServerRun &server : results.servers) {
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
            const PassTiming &timing = server.repeats.front().timing;
            QCOMPARE(timing.totalCalls(), workload->describe().commands);
            QVERIFY2(timing.serverTime, qPrintable(server.id));
            const ServerClock &clock = *timing.serverTime;
            // Summed over a cluster's primaries: every command the workload sent, none of Versus's.
            QCOMPARE(clock.commandsProcessed.value_or(-1), timing.commands);
            QVERIFY2(clock.eventLoopUsec && clock.eventLoopCommandUsec && clock.eventLoopCycles, qPrintable(server.id));

            const double loop = parts.at(parts.categoryIndex(TimePart::Loop), server.id).value;
            const double inside = parts.at(parts.categoryIndex(TimePart::Inside), server.id).value;
            const double around = parts.at(parts.categoryIndex(TimePart::Around), server.id).value;
            const Figure &rest = parts.at(parts.categoryIndex(TimePart::NotAttributed), server.id);
            QCOMPARE(rest.state, FigureState::Measured);
            const double calls = double(timing.totalCalls());
            QVERIFY(std::fabs(loop - double(*clock.eventLoopUsec) / calls) < 1e-9);
            QVERIFY(std::fabs(inside + around + rest.value - loop) < 1e-9);
            // The loop's time in commands is commandstats' time inside them, up to what no
            // command's usec holds: within 5% of the loop's time per command.
            const QString accounting = QStringLiteral("%1: loop %2, inside %3, around %4, not attributed %5 µs per command")
                                           .arg(server.id)
                                           .arg(loop, 0, 'f', 4)
                                           .arg(inside, 0, 'f', 4)
                                           .arg(around, 0, 'f', 4)
                                           .arg(rest.value, 0, 'f', 4);
            qInfo("%s", qPrintable(accounting));
            QVERIFY2(std::fabs(rest.value) <= 0.05 * loop, qPrintable(accounting));
        }
    }
};

QTEST_GUILESS_MAIN(TestTimeParts)
#include "tst_timeparts.moc"
