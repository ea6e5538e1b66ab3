// Each timed pass's bottleneck verdict (figurespassverdict.cpp) on a real server, with each
// condition made to happen for real: a busy loop pinned to the server's CPU makes the pass
// "shared", a BGSAVE sent by another connection while the pass runs makes it "disturbed", a
// client that pauses before each event makes it "client-bound", and without either it is never
// disturbed (and shared only for a wait the busy machine caused).
// No time's size or direction is asserted.

#include "bundlemarkdown.h"
#include "cpupinning.h"
#include "eventsworkload.h"
#include "figures.h"
#include "redisconnection.h"
#include "reportmarkdown.h"
#include "runcontroller.h"
#include "servertesthelpers.h"

#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <csignal>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// INCRBY on 500 counters, 64 per pipeline: long enough a pass (seconds here) for a live snapshot
// to arrive while it runs.
std::shared_ptr<const Workload> longCounterPass(long long events)
{
    WorkloadInfo info;
    info.name = QStringLiteral("verdict-counters");
    info.events = events;
    info.commands = events;
    info.types = {QStringLiteral("counter")};
    return std::make_shared<EventsWorkload>(info, [](long long i, EventCommands &out) {
        out.add("counter", {"INCRBY", "n:" + std::to_string(i % 500), "3"});
    });
}

// One INCRBY per event, sent one event per pipeline by a client that sleeps `pauseUsec` before
// making each event: the server waits for the client, as it does for an application that
// thinks between requests.
std::shared_ptr<const Workload> throttledCounterPass(long long events, int pauseUsec)
{
    WorkloadInfo info;
    info.name = QStringLiteral("verdict-throttled");
    info.events = events;
    info.commands = events;
    info.types = {QStringLiteral("counter")};
    return std::make_shared<EventsWorkload>(info, [pauseUsec](long long i, EventCommands &out) {
        usleep(useconds_t(pauseUsec));
        out.add("counter", {"INCRBY", "n:" + std::to_string(i % 500), "3"});
    });
}

// A child process that spins on `cpu` until it is killed, with the test or by its death.
class PinnedBusyLoop {
public:
    explicit PinnedBusyLoop(int cpu)
    {
        m_pid = fork();
        if (m_pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            sched_setaffinity(0, sizeof(set), &set);
            for (volatile unsigned long spin = 0;; spin = spin + 1) {
            }
        }
    }
    ~PinnedBusyLoop()
    {
        if (m_pid > 0) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }
    bool started() const { return m_pid > 0; }

private:
    pid_t m_pid = -1;
};

// The launched server's port and control password: its log names its port and pid, and its
// command line its config file (0600, this user's), whose requirepass is the control login.
struct ServerLogin {
    int port = 0;
    QString password;
};

ServerLogin loginFromLog(const QString &line)
{
    static const QRegularExpression started(QStringLiteral("started on [^:]+:(\\d+) \\(pid (\\d+)\\)"));
    const QRegularExpressionMatch match = started.match(line);
    if (!match.hasMatch())
        return {};
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(match.captured(2)));
    if (!cmdline.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &argument : cmdline.readAll().split('\0')) {
        if (!argument.endsWith("versus.conf"))
            continue;
        QFile config(QString::fromLocal8Bit(argument));
        if (!config.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray &configLine : config.readAll().split('\n')) {
            if (configLine.startsWith("requirepass "))
                return {match.captured(1).toInt(), QString::fromLatin1(configLine.mid(12).trimmed())};
        }
    }
    return {};
}

struct VerdictRun {
    ResultsBundle bundle;
    bool bgsaveSent = false;
};

// One repeat on `server`; with `bgsaveDuringPass`, a second connection sends BGSAVE as soon as
// a live snapshot shows the timed pass under way.
VerdictRun runOnce(const ServerSpec &server, bool bgsaveDuringPass,
                   std::shared_ptr<const Workload> workload = longCounterPass(200000), int eventsPerBatch = 64)
{
    VerdictRun result;
    RunController controller;
    QSignalSpy finished(&controller, &RunController::runFinished);
    ServerLogin login;
    RedisConnection other;
    QObject::connect(&controller, &RunController::serverLog, [&](const QString &, const QString &line) {
        if (login.port == 0)
            login = loginFromLog(line);
    });
    QObject::connect(&controller, &RunController::resultsChanged, [&](const BundleSnapshot &snapshot) {
        if (!bgsaveDuringPass || result.bgsaveSent || login.port == 0)
            return;
        const ServerRun &run = snapshot->servers.front();
        if (run.repeats.empty() || !run.repeats.front().unfinishedTimedPass || run.repeats.front().timing.commands == 0)
            return;
        if (other.connectTcp(QStringLiteral("127.0.0.1"), login.port, 5000, QStringLiteral("test")) && other.auth(login.password)) {
            const Outcome<Reply> reply = other.command({"BGSAVE"});
            result.bgsaveSent = reply && !reply->isError();
        }
    });
    RunRequest request;
    request.servers = {server};
    request.workload = std::move(workload);
    request.eventsPerBatch = eventsPerBatch;
    request.probeIntervalMs = 10;
    controller.start(request);
    if (QTest::qWaitFor([&] { return finished.count() == 1; }, 240000))
        result.bundle = finished.first().first().value<ResultsBundle>();
    return result;
}

// The verdicts of the run's timed passes, as the figures layer gives them.
std::vector<PassVerdict> verdictsOf(const ResultsBundle &bundle)
{
    return Figures(bundle).passVerdicts();
}

} // namespace

class TestPassVerdict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void busyLoopOnTheServersCpuMakesThePassShared()
    {
        VERSUS_REQUIRE_SERVER(valkey, "valkey-9.1.");
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (!plan)
            QSKIP("the server is pinned to a CPU of its own only with two CPUs or more");
        PinnedBusyLoop busy(plan->serverCpus.front());
        QVERIFY(busy.started());
        const VerdictRun run = runOnce(valkey, false);
        QVERIFY(run.bundle.complete);
        const std::vector<PassVerdict> verdicts = verdictsOf(run.bundle);
        QCOMPARE(verdicts.size(), size_t(1));
        QVERIFY2(verdicts.front().bound == PassBound::Shared, qPrintable(passBoundName(verdicts.front().bound) + QStringLiteral(": ") + verdicts.front().why));
        const Figures figures(run.bundle);
        QVERIFY(figures.bottleneckNote().contains(QStringLiteral("close the other program")));
        QVERIFY(figures.commandTime().at(0, valkey.label).bottleneck.startsWith(QStringLiteral("shared")));
    }

    void bgsaveDuringThePassMakesItDisturbed()
    {
        VERSUS_REQUIRE_SERVER(valkey, "valkey-9.1.");
        const VerdictRun run = runOnce(valkey, true);
        QVERIFY(run.bundle.complete);
        QVERIFY2(run.bgsaveSent, "no live snapshot arrived during the timed pass to send BGSAVE in");
        const std::vector<PassVerdict> verdicts = verdictsOf(run.bundle);
        QCOMPARE(verdicts.size(), size_t(1));
        QCOMPARE(passBoundName(verdicts.front().bound), QStringLiteral("disturbed"));
        QVERIFY2(verdicts.front().why.contains(QStringLiteral("forked")), qPrintable(verdicts.front().why));
        const Figures figures(run.bundle);
        const QString note = figures.bottleneckNote();
        QVERIFY2(note.contains(QStringLiteral("timed pass (repeat 1) was disturbed")), qPrintable(note));
        // The table (its Markdown, which the CLI prints), report.md and the chart's caveat say so.
        QVERIFY(bundleToMarkdown(figures).contains(QStringLiteral("was disturbed")));
        QVERIFY(bundleToMarkdown(figures).contains(QStringLiteral(" §")));
        QVERIFY(reportMarkdown(figures, {}).contains(QStringLiteral("was disturbed")));
        QVERIFY(figures.buildCaveat(CaveatOf::Time).contains(QStringLiteral("was disturbed")));
    }

    // The encoder makes each batch while the ones before it are on the wire (batchencoder.h), so
    // the pause is the client's own time inside the pass: the server idles between events.
    void throttledClientMakesThePassClientBound()
    {
        VERSUS_REQUIRE_SERVER(valkey, "valkey-9.1.");
        const VerdictRun run = runOnce(valkey, false, throttledCounterPass(3000, 500), 1);
        QVERIFY(run.bundle.complete);
        const std::vector<PassVerdict> verdicts = verdictsOf(run.bundle);
        QCOMPARE(verdicts.size(), size_t(1));
        const PassVerdict &verdict = verdicts.front();
        const QString said = passBoundName(verdict.bound) + QStringLiteral(": ") + verdict.why;
        qInfo("%s", qPrintable(said));
        // A machine busy with other work may keep the sleeping client waiting for its CPU after
        // each pause: then the pass is rightly shared, for that wait, and the machine is named.
        if (verdict.bound == PassBound::Shared) {
            QVERIFY2(verdict.why.contains(QStringLiteral("waiting for its CPU")) || verdict.why.contains(QStringLiteral("hypervisor")),
                     qPrintable(said));
            return;
        }
        QVERIFY2(verdict.bound == PassBound::ClientBound, qPrintable(said));
        QVERIFY2(verdict.why.startsWith(QStringLiteral("the server's main thread was busy ")), qPrintable(said));
        QVERIFY2(verdict.why.contains(QStringLiteral("Versus's replay used ")), qPrintable(said));
        const Figures figures(run.bundle);
        QVERIFY2(figures.bottleneckNote().contains(QStringLiteral("use --clients")), qPrintable(figures.bottleneckNote()));
        QVERIFY(figures.commandTime().at(0, valkey.label).bottleneck.startsWith(QStringLiteral("client-bound")));
    }

    void withoutEitherThePassIsNeverDisturbed()
    {
        VERSUS_REQUIRE_SERVER(valkey, "valkey-9.1.");
        const VerdictRun run = runOnce(valkey, false);
        QVERIFY(run.bundle.complete);
        const std::vector<PassVerdict> verdicts = verdictsOf(run.bundle);
        QCOMPARE(verdicts.size(), size_t(1));
        const PassVerdict &verdict = verdicts.front();
        const QString said = passBoundName(verdict.bound) + QStringLiteral(": ") + verdict.why;
        // Nothing of the test's own forked, evicted or connected: never disturbed, and its load was read.
        QVERIFY2(verdict.bound != PassBound::Disturbed && verdict.bound != PassBound::Unknown, qPrintable(said));
        // On a machine that runs other work (a parallel test suite, a build) the pass may rightly be
        // shared; then only for a wait the machine caused, which it names, never for the test's own doing.
        if (verdict.bound == PassBound::Shared)
            QVERIFY2(verdict.why.contains(QStringLiteral("waiting for its CPU")) || verdict.why.contains(QStringLiteral("hypervisor")),
                     qPrintable(said));
    }
};

QTEST_GUILESS_MAIN(TestPassVerdict)
#include "tst_passverdict.moc"
