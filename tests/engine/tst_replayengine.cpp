// The replay engine against real servers: every fetched version at once, both schedules,
// unsupported commands, cancellation, a killed server, a hung server and endpoint safety.

#include "cpupinning.h"
#include "redisconnection.h"
#include "runcontroller.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <set>

namespace {

// A small deterministic workload: per event one counter (INCRBY + EXPIRE) and, every other
// event, one capped list (LPUSH + LTRIM + EXPIRE). 100 counter keys and 50 list keys.
class TinyWorkload : public Workload {
public:
    explicit TinyWorkload(long long events) : m_events(events) {}
    WorkloadInfo describe() const override
    {
        WorkloadInfo d;
        d.name = QStringLiteral("tiny");
        d.events = m_events;
        d.commands = m_events * 2 + (m_events + 1) / 2 * 3;
        d.types = {QStringLiteral("counter"), QStringLiteral("unique_list")};
        return d;
    }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>(m_events));
    }

private:
    class Source : public CommandSource {
    public:
        explicit Source(long long events) : m_events(events) {}
        bool next(EventCommands &out) override
        {
            if (m_next >= m_events)
                return false;
            const long long i = m_next++;
            const std::string counter = "c:" + std::to_string(i % 100);
            out.commands.push_back({{"INCRBY", counter, "3"}, "counter"});
            out.commands.push_back({{"EXPIRE", counter, "86400"}, "counter"});
            if (i % 2 == 0) {
                const std::string list = "l:" + std::to_string((i / 2) % 50);
                out.commands.push_back({{"LPUSH", list, "item-" + std::to_string(i)}, "unique_list"});
                out.commands.push_back({{"LTRIM", list, "0", "9"}, "unique_list"});
                out.commands.push_back({{"EXPIRE", list, "86400"}, "unique_list"});
            }
            return true;
        }

    private:
        long long m_events;
        long long m_next = 0;
    };
    long long m_events;
};

// One pattern the server may not know: HSETEX exists from Valkey 9.0 on.
class HsetexWorkload : public Workload {
public:
    WorkloadInfo describe() const override
    {
        WorkloadInfo d;
        d.name = QStringLiteral("hsetex-probe");
        d.events = 200;
        d.commands = 400;
        d.types = {QStringLiteral("hsetex"), QStringLiteral("set-ex")};
        d.typesTimedAlone = true;
        return d;
    }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>());
    }

private:
    class Source : public CommandSource {
    public:
        bool next(EventCommands &out) override
        {
            if (m_next >= 200)
                return false;
            const std::string i = std::to_string(m_next++);
            out.commands.push_back({{"HSETEX", "user:" + i, "EX", "900", "FIELDS", "1", "auth_token", "v" + i}, "hsetex"});
            out.commands.push_back({{"SET", "user:" + i + ":auth_token", "v" + i, "EX", "900"}, "set-ex"});
            return true;
        }

    private:
        int m_next = 0;
    };
};

RunRequest requestFor(std::vector<ServerSpec> servers, std::shared_ptr<const Workload> workload)
{
    RunRequest request;
    request.servers = std::move(servers);
    request.workload = std::move(workload);
    return request;
}

// Server pids announced in the engine's log lines ("started … (pid N)").
std::set<qint64> pidsFromLog(const QSignalSpy &logSpy)
{
    std::set<qint64> pids;
    static const QRegularExpression pidPattern(QStringLiteral("\\(pid (\\d+)\\)"));
    for (const QList<QVariant> &arguments : logSpy) {
        const QRegularExpressionMatch match = pidPattern.match(arguments.at(1).toString());
        if (match.hasMatch())
            pids.insert(match.captured(1).toLongLong());
    }
    return pids;
}

// One row per schedule, in a column named "schedule".
void addScheduleRows()
{
    QTest::addColumn<Schedule>("schedule");
    QTest::newRow("fair") << Schedule::Fair;
    QTest::newRow("concurrent") << Schedule::Concurrent;
}

ResultsBundle waitForFinish(QSignalSpy &finished, int timeoutMs)
{
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, timeoutMs))
        return ResultsBundle();
    return finished.first().first().value<ResultsBundle>();
}

} // namespace

class TestReplayEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyServerAtOnce_data() { addScheduleRows(); }

    void everyServerAtOnce()
    {
        QFETCH(Schedule, schedule);
        VERSUS_REQUIRE_SERVERS();
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy progress(&controller, &RunController::serverProgress);
        QSignalSpy log(&controller, &RunController::serverLog);
        RunRequest request = requestFor(ServerTestHelpers::fetchedServers(), std::make_shared<TinyWorkload>(1000));
        request.schedule = schedule;
        controller.start(request);
        const ResultsBundle results = waitForFinish(finished, 120000);
        QVERIFY(results.complete);
        QCOMPARE(results.servers.size(), ServerTestHelpers::fetchedServers().size());
        for (const ServerRun &server : results.servers) {
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
            QCOMPARE(server.repeats.size(), size_t(1));
            const RepeatResult &repeat = server.repeats.front();
            QCOMPARE(repeat.keys, 150LL);
            QCOMPARE(repeat.byType.at(QStringLiteral("counter")).keys, 100LL);
            QCOMPARE(repeat.byType.at(QStringLiteral("unique_list")).keys, 50LL);
            QCOMPARE(repeat.byType.at(QStringLiteral("counter")).encodings.at(QStringLiteral("int")), 100LL);
            // commandstats counts exactly what was sent, and nothing Versus itself asked.
            const PassTiming &timing = repeat.timing;
            QCOMPARE(timing.byCommand.at(QStringLiteral("incrby")).calls, 1000LL);
            QCOMPARE(timing.byCommand.at(QStringLiteral("lpush")).calls, 500LL);
            QCOMPARE(timing.byCommand.at(QStringLiteral("ltrim")).calls, 500LL);
            QCOMPARE(timing.byCommand.at(QStringLiteral("expire")).calls, 1500LL);
            QCOMPARE(timing.byCommand.size(), size_t(4));
            QCOMPARE(timing.totalCalls(), 3500LL);
            QCOMPARE(timing.commands, 3500LL);
            QCOMPARE(timing.events, 1000LL);
            QVERIFY(repeat.errors.empty());
            QVERIFY(repeat.usedMemoryDelta > 0);
            QVERIFY(repeat.bytesPerKey() > 0);
        }
        // The last progress of each server says done at 100%.
        std::map<QString, ServerProgress> last;
        for (const QList<QVariant> &arguments : progress) {
            const ServerProgress p = arguments.first().value<ServerProgress>();
            last[p.serverId] = p;
        }
        QCOMPARE(last.size(), results.servers.size());
        for (const auto &entry : last) {
            QCOMPARE(entry.second.state, ProgressState::Done);
            QCOMPARE(entry.second.eventsDone, entry.second.eventsTotal);
        }
        for (qint64 pid : pidsFromLog(log))
            QVERIFY2(!ServerTestHelpers::processAlive(pid), qPrintable(QString::number(pid)));
    }

    // With --repeat, every server starts repeat r + 1 only after all have finished repeat r,
    // and each timed pass starts and ends together: the log reads S S S T T T S S S T T T …
    void repeatsInterleave_data()
    {
        QTest::addColumn<Schedule>("schedule");
        QTest::addColumn<bool>("oneTimedPassPerType");
        QTest::newRow("fair") << Schedule::Fair << false;
        QTest::newRow("concurrent") << Schedule::Concurrent << false;
        QTest::newRow("fair, a timed pass per pattern") << Schedule::Fair << true;
    }

    void repeatsInterleave()
    {
        QFETCH(Schedule, schedule);
        QFETCH(bool, oneTimedPassPerType);
        VERSUS_REQUIRE_SERVERS();
        const std::vector<ServerSpec> servers = ServerTestHelpers::fetchedServers();
        const int repeats = 3;
        std::shared_ptr<const Workload> workload;
        QStringList timedPhases;
        if (oneTimedPassPerType) {
            workload = std::make_shared<HsetexWorkload>();
            timedPhases = QStringList{QStringLiteral("timed: hsetex"), QStringLiteral("timed: set-ex")};
        } else {
            workload = std::make_shared<TinyWorkload>(1000);
            timedPhases = QStringList{QStringLiteral("timed pass")};
        }
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy log(&controller, &RunController::serverLog);
        RunRequest request = requestFor(servers, workload);
        request.schedule = schedule;
        request.repeats = repeats;
        controller.start(request);
        const ResultsBundle results = waitForFinish(finished, 300000);
        QVERIFY(results.complete);
        // A server that failed has none of its later lines: its error says more than their count.
        for (const ServerRun &server : results.servers)
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));

        QStringList expected;
        for (int repeat = 0; repeat < repeats; ++repeat) {
            for (size_t i = 0; i < servers.size(); ++i)
                expected << QStringLiteral("started");
            for (const QString &phase : timedPhases) {
                for (size_t i = 0; i < servers.size(); ++i)
                    expected << phase;
            }
        }
        QStringList seen;
        // "timed pass: 1000 events, 3000 commands, …": the line a pass ends with.
        static const QRegularExpression passEnded(QStringLiteral("^(.+): \\d+ events, \\d+ commands, "));
        QStringList labels;
        for (const ServerSpec &spec : servers)
            labels << spec.label;
        for (const QList<QVariant> &arguments : log) {
            const QString line = arguments.at(1).toString();
            QVERIFY2(labels.contains(arguments.at(0).toString()), qPrintable(arguments.at(0).toString() + QStringLiteral(": ") + line));
            if (line.startsWith(QStringLiteral("started on ")))
                seen << QStringLiteral("started");
            const QRegularExpressionMatch ended = passEnded.match(line);
            if (ended.hasMatch() && timedPhases.contains(ended.captured(1)))
                seen << ended.captured(1);
        }
        QCOMPARE(seen, expected);
        for (const ServerRun &server : results.servers)
            QCOMPARE(server.repeats.size(), size_t(repeats));
    }

    // Under the fair schedule the timed server's main thread runs on a CPU of its own and gets
    // its full set back afterwards; under the concurrent one it is never pinned.
    void timedServerHasACpuOfItsOwn_data() { addScheduleRows(); }

    void timedServerHasACpuOfItsOwn()
    {
        QFETCH(Schedule, schedule);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy log(&controller, &RunController::serverLog);
        RunRequest request = requestFor({spec}, std::make_shared<TinyWorkload>(60000));
        request.schedule = schedule;
        controller.start(request);

        // "Cpus_allowed_list" of the server's main thread, sampled while the run goes on.
        std::set<QString> seen;
        QElapsedTimer clock;
        clock.start();
        while (finished.isEmpty() && clock.elapsed() < 120000) {
            const std::set<qint64> pids = pidsFromLog(log);
            for (qint64 pid : pids) {
                QFile status(QStringLiteral("/proc/%1/status").arg(pid));
                if (!status.open(QIODevice::ReadOnly))
                    continue;
                for (const QByteArray &line : status.readAll().split('\n')) {
                    if (line.startsWith("Cpus_allowed_list:"))
                        seen.insert(QString::fromLatin1(line.mid(int(strlen("Cpus_allowed_list:"))).trimmed()));
                }
            }
            QTest::qWait(2);
        }
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished.first().first().value<ResultsBundle>().complete);
        // "timed pass: server on CPU 1, replay on CPU 0"
        static const QRegularExpression announcement(QStringLiteral("^timed pass: server on CPU (\\d+), replay on CPU [\\d,]+$"));
        QStringList announced;
        QString serverCpu;
        for (const QList<QVariant> &arguments : log) {
            const QRegularExpressionMatch match = announcement.match(arguments.at(1).toString());
            if (match.hasMatch()) {
                announced << match.captured(0);
                serverCpu = match.captured(1);
            }
        }
        const QString what = QStringLiteral("seen: %1").arg(QStringList(seen.begin(), seen.end()).join(QStringLiteral(" | ")));
        if (schedule == Schedule::Fair && plan) {
            QCOMPARE(announced.size(), 1);
            QCOMPARE(serverCpu, QString::number(plan->serverCpus.front()));
            QVERIFY2(seen.count(serverCpu) == 1, qPrintable(what));
            QVERIFY2(seen.size() == 2, qPrintable(what));   // pinned, and given its full set back for memory passes
        } else {
            QVERIFY2(announced.isEmpty(), qPrintable(announced.join(QLatin1Char('\n'))));
            QVERIFY2(seen.size() <= 1, qPrintable(what));   // whatever it inherited, never changed
        }
    }

    // While a timed pass runs, the results carry the server's own figures so far: exactly the
    // commands replied to, counted by the server, and the keys and memory they made.
    void liveFiguresDuringATimedPass()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        const auto workload = std::make_shared<TinyWorkload>(40000);
        const long long total = workload->describe().commands;
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy changed(&controller, &RunController::resultsChanged);
        RunRequest request = requestFor({spec}, workload);
        request.probeIntervalMs = 50;
        controller.start(request);
        const ResultsBundle results = waitForFinish(finished, 120000);
        QVERIFY(results.complete);

        int partials = 0;
        for (const QList<QVariant> &arguments : changed) {
            const ResultsBundle &live = *arguments.first().value<BundleSnapshot>();
            const ServerRun &server = live.servers.front();
            if (server.repeats.empty())
                continue;
            const RepeatResult &repeat = server.repeats.front();
            if (repeat.status != RepeatStatus::Incomplete || !repeat.unfinishedTimedPass || repeat.timing.commands <= 0
                || repeat.timing.commands >= total)
                continue;
            ++partials;
            long long workloadCalls = 0;
            for (const char *name : {"incrby", "expire", "lpush", "ltrim"}) {
                const auto found = repeat.timing.byCommand.find(QString::fromLatin1(name));
                if (found != repeat.timing.byCommand.end())
                    workloadCalls += found->second.calls;
            }
            QCOMPARE(workloadCalls, repeat.timing.commands);
            QVERIFY2(repeat.keys > 0 && repeat.usedMemoryDelta > 0,
                     qPrintable(QStringLiteral("%1 keys, %2 bytes").arg(repeat.keys).arg(repeat.usedMemoryDelta)));
        }
        QVERIFY2(partials > 0, "no live figures arrived during the timed pass");
        QCOMPARE(results.servers.front().repeats.front().timing.commands, total);
    }

    void unsupportedCommandIsAResult()
    {
        VERSUS_REQUIRE_SERVER(old, "valkey-8.1.1");
        VERSUS_REQUIRE_SERVER(current, "valkey-9.1.");
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        controller.start(requestFor({old, current}, std::make_shared<HsetexWorkload>()));
        const ResultsBundle results = waitForFinish(finished, 60000);
        QVERIFY(results.complete);
        const RepeatResult &onOld = results.server(old.label)->repeats.front();
        QCOMPARE(results.server(old.label)->status, RunStatus::Ok);
        QCOMPARE(onOld.byType.at(QStringLiteral("hsetex")).status, TypeStatus::Unsupported);
        QVERIFY(onOld.byType.at(QStringLiteral("hsetex")).error.startsWith(QStringLiteral("ERR unknown command")));
        QCOMPARE(onOld.byType.at(QStringLiteral("set-ex")).status, TypeStatus::Ok);
        QCOMPARE(onOld.byType.at(QStringLiteral("set-ex")).keys, 200LL);
        QVERIFY(onOld.errors.empty());   // unsupported is not an unexpected error
        const RepeatResult &onCurrent = results.server(current.label)->repeats.front();
        QCOMPARE(onCurrent.byType.at(QStringLiteral("hsetex")).status, TypeStatus::Ok);
        QCOMPARE(onCurrent.byType.at(QStringLiteral("hsetex")).keys, 200LL);
        QCOMPARE(onCurrent.byType.at(QStringLiteral("hsetex")).timing->byCommand.at(QStringLiteral("hsetex")).calls, 200LL);
        QCOMPARE(onCurrent.byType.at(QStringLiteral("hsetex")).timing->events, 200LL);
        QCOMPARE(onCurrent.byType.at(QStringLiteral("set-ex")).timing->byCommand.at(QStringLiteral("set")).calls, 200LL);
        // Each pattern was timed on its own: no repeat-wide timing mixes them.
        QVERIFY(onCurrent.timing.byCommand.empty());
    }

    void cancelStopsEverything()
    {
        VERSUS_REQUIRE_SERVERS();
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy progress(&controller, &RunController::serverProgress);
        QSignalSpy log(&controller, &RunController::serverLog);
        controller.start(requestFor(ServerTestHelpers::fetchedServers(), std::make_shared<TinyWorkload>(2000000)));
        QVERIFY(QTest::qWaitFor([&] {
            for (const QList<QVariant> &arguments : progress) {
                if (arguments.first().value<ServerProgress>().eventsDone > 1000)
                    return true;
            }
            return false;
        }, 60000));
        QElapsedTimer clock;
        clock.start();
        controller.cancel();
        const ResultsBundle results = waitForFinish(finished, 10000);
        QVERIFY(finished.count() == 1);
        qInfo() << "cancel took" << clock.elapsed() << "ms";
        QVERIFY(!results.complete);
        for (const ServerRun &server : results.servers)
            QCOMPARE(server.status, RunStatus::Incomplete);
        const std::set<qint64> pids = pidsFromLog(log);
        QCOMPARE(pids.size(), results.servers.size());
        for (qint64 pid : pids)
            QVERIFY2(!ServerTestHelpers::processAlive(pid), qPrintable(QString::number(pid)));
    }

    void killedServerFailsAloneAndOthersFinish_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGKILL") << int(SIGKILL);
        QTest::newRow("SIGSTOP") << int(SIGSTOP);
    }

    void killedServerFailsAloneAndOthersFinish()
    {
        QFETCH(int, signal);
        VERSUS_REQUIRE_SERVER(victim, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(survivor, "valkey-9.1.");
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy progress(&controller, &RunController::serverProgress);
        QSignalSpy log(&controller, &RunController::serverLog);
        RunRequest request = requestFor({victim, survivor}, std::make_shared<TinyWorkload>(60000));
        // Long enough for the healthy survivor on a busy machine (with a second suite beside this
        // one it was once silent for over 1.5 s and failed too), short enough to find the
        // stopped victim (ServerTestHelpers::kHealthyReplyMs would double the wait for it).
        request.commandTimeoutMs = 5000;
        controller.start(request);
        qint64 victimPid = 0;
        QVERIFY(QTest::qWaitFor([&] {
            for (const QList<QVariant> &arguments : log) {
                const QString line = arguments.at(1).toString();
                static const QRegularExpression pidPattern(QStringLiteral("\\(pid (\\d+)\\)"));
                if (arguments.at(0).toString() == victim.label && pidPattern.match(line).hasMatch())
                    victimPid = pidPattern.match(line).captured(1).toLongLong();
            }
            if (victimPid == 0)
                return false;
            for (const QList<QVariant> &arguments : progress) {
                const ServerProgress p = arguments.first().value<ServerProgress>();
                if (p.serverId == victim.label && p.eventsDone > 100)
                    return true;
            }
            return false;
        }, 60000));
        QCOMPARE(::kill(pid_t(victimPid), signal), 0);
        const ResultsBundle results = waitForFinish(finished, 120000);
        QCOMPARE(finished.count(), 1);
        const ServerRun *failed = results.server(victim.label);
        QCOMPARE(failed->status, RunStatus::Failed);
        QVERIFY2(failed->error.contains(victim.label), qPrintable(failed->error));
        QVERIFY(!failed->logTail.isEmpty());
        QVERIFY2(results.server(survivor.label)->status == RunStatus::Ok, qPrintable(results.server(survivor.label)->error));
        QCOMPARE(results.server(survivor.label)->repeats.front().byType.at(QStringLiteral("counter")).keys, 100LL);
        QVERIFY(QTest::qWaitFor([&] { return !ServerTestHelpers::processAlive(victimPid); }, 5000));
        for (qint64 pid : pidsFromLog(log))
            QVERIFY2(!ServerTestHelpers::processAlive(pid), qPrintable(QString::number(pid)));
    }

    void endpointWithDataIsNeverFlushedWithoutConsent()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess server(spec);
        QVERIFY2(server.start(), "server did not start");
        RedisConnection connection;
        QVERIFY(server.connect(connection, 5000));
        QVERIFY(connection.command({"SET", "precious", "data"}).ok());

        ServerSpec endpoint;
        endpoint.label = QStringLiteral("endpoint");
        endpoint.isEndpoint = true;
        endpoint.host = server.host();
        endpoint.port = server.port();
        endpoint.password = server.controlCredentials().password;
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        controller.start(requestFor({endpoint}, std::make_shared<TinyWorkload>(100)));
        const ResultsBundle results = waitForFinish(finished, 30000);
        QCOMPARE(results.servers.front().status, RunStatus::Failed);
        QVERIFY2(results.servers.front().error.contains(QStringLiteral("refusing to flush")),
                 qPrintable(results.servers.front().error));
        QVERIFY2(results.servers.front().error.contains(QStringLiteral("(1 keys)")), qPrintable(results.servers.front().error));
        const Outcome<Reply> kept = connection.command({"GET", "precious"});
        QVERIFY(kept.ok());
        QCOMPARE(kept->text, std::string("data"));

        RunRequest consenting = requestFor({endpoint}, std::make_shared<TinyWorkload>(100));
        consenting.allowFlush = true;
        QSignalSpy second(&controller, &RunController::runFinished);
        controller.start(consenting);
        const ResultsBundle flushed = waitForFinish(second, 30000);
        QCOMPARE(flushed.servers.front().status, RunStatus::Ok);
        QCOMPARE(flushed.servers.front().version, spec.identity.version);
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestReplayEngine)
#include "tst_replayengine.moc"
