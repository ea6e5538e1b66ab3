// One pass of replayPass() into a real valkey-9.1, through a relay that keeps what the server
// received (tests/support/recordingproxy.h): the bytes are exactly the workload's commands in
// RESP, whatever the batch size, pass type or schedule; the counts and ticks agree with them;
// error replies in the middle of a batch, after replies larger than a read, are counted under
// the command that caused them; and the send filter keeps commands off the wire.

#include "fairscheduler.h"
#include "hashttlworkload.h"
#include "passreplayer.h"
#include "recordingproxy.h"
#include "replayaccess.h"
#include "respencoded.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "workloadfactory.h"

#include <QtTest>
#include <csignal>

namespace {

using TestResp::encoded;

// The pass's commands in RESP, read from a fresh source into fresh EventCommands, and their
// counts by name.
std::string expectedTraffic(const Workload &workload, const std::string &onlyType, std::map<std::string, long long> &sent)
{
    std::string traffic;
    std::unique_ptr<CommandSource> source = std::move(workload.open().value());
    for (;;) {
        EventCommands event;
        if (!source->next(event))
            return traffic;
        for (const WorkloadCommand &command : event.commands) {
            if (!onlyType.empty() && command.type != onlyType)
                continue;
            traffic += encoded(command.args);
            ++sent[command.args.front()];
        }
    }
}

const std::string kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

// Per event: a good write, a WRONGTYPE error, a reply of 300 kB, an unknown command, a counter
// and a command the replay user's ACL refuses. Event 0 first fills the large list.
class MixedWorkload : public Workload {
public:
    static constexpr int kEvents = 40;
    WorkloadInfo describe() const override
    {
        WorkloadInfo info;
        info.name = QStringLiteral("mixed");
        info.events = kEvents;
        return info;
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
            if (m_next >= kEvents)
                return false;
            const std::string key = "s:" + std::to_string(m_next++);
            out.clear();
            if (m_next == 1) {
                WorkloadCommand &push = out.add();
                push.type = "list";
                push.args = {"RPUSH", "big"};
                for (int i = 0; i < 3000; ++i)
                    push.args.push_back(std::string(100, char('a' + i % 26)));
            }
            out.add("string", {"SET", key, "v"});
            out.add("string", {"HSET", key, "f", "v"});
            out.add("list", {"LRANGE", "big", "0", "-1"});
            out.add("other", {"NOSUCHCMD", "x"});
            out.add("counter", {"INCRBY", "c", "1"});
            out.add("other", {"CONFIG", "GET", "maxmemory"});
            return true;
        }

    private:
        int m_next = 0;
    };
};

} // namespace

class TestPassReplayer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        std::signal(SIGPIPE, SIG_IGN);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        m_server = std::make_unique<ServerProcess>(spec);
        const Status started = m_server->start();
        QVERIFY2(started, qPrintable(started.error()));
        QVERIFY(m_server->connect(m_control, 5000));
    }

    void cleanupTestCase()
    {
        m_control.close();
        m_server.reset();
    }

    void init()
    {
        Outcome<Reply> flushed = m_control.command({"FLUSHALL", "SYNC"});
        QVERIFY(flushed && !flushed->isError());
        m_proxy = std::make_unique<RecordingProxy>(m_server->port());
        QVERIFY(m_replay.connectTcp(QStringLiteral("127.0.0.1"), m_proxy->port(), 5000, QStringLiteral("via relay")));
        QVERIFY(m_replay.auth(m_server->replayCredentials()));
        // AUTH went through the relay; the pass's bytes start after it.
        m_start = m_proxy->received().size();
    }

    void cleanup()
    {
        m_replay.close();
        m_proxy.reset();
    }

    void trafficIsTheWorkloadsCommands_data()
    {
        QTest::addColumn<QString>("workloadName");
        QTest::addColumn<int>("perBatch");
        QTest::addColumn<QString>("onlyType");
        QTest::addColumn<bool>("fair");
        QTest::newRow("ecommerce, 1 event per pipeline") << "ecommerce" << 1 << QString() << false;
        QTest::newRow("ecommerce, 256 events per pipeline") << "ecommerce" << 256 << QString() << false;
        QTest::newRow("ecommerce, fair turns") << "ecommerce" << 3 << QString() << true;
        QTest::newRow("hash-ttl, the hsetex pattern") << "hash-ttl" << 5 << "hsetex" << false;
    }

    void trafficIsTheWorkloadsCommands()
    {
        QFETCH(QString, workloadName);
        QFETCH(int, perBatch);
        QFETCH(QString, onlyType);
        QFETCH(bool, fair);
        HashTtlParameters parameters;
        parameters.keys = 1500;
        std::shared_ptr<Workload> workload = std::make_shared<HashTtlWorkload>(parameters);
        if (workloadName == QLatin1String("ecommerce")) {
            Outcome<std::shared_ptr<Workload>> made = makeWorkload(workloadName, {}, QString(), 2000, false);
            QVERIFY(made);
            workload = made.value();
        }
        std::atomic<bool> cancelled{false};
        FairScheduler scheduler(1);
        PassOptions options;
        options.onlyType = onlyType.toStdString();
        options.eventsPerBatch = perBatch;
        options.cancelled = &cancelled;
        if (fair) {
            scheduler.enter(0);
            options.fair = &scheduler;
        }
        int ticks = 0;
        QStringList tickProblems;
        options.tickIntervalMs = 0;
        options.tick = [&](const PassResult &soFar) {
            ++ticks;
            long long sent = 0;
            for (const auto &entry : soFar.sent)
                sent += entry.second;
            if (sent != soFar.commands)
                tickProblems << QStringLiteral("tick %1: %2 sent, %3 commands").arg(ticks).arg(sent).arg(soFar.commands);
        };
        const Outcome<PassResult> pass = replayPass(*workload, m_replay, options);
        QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));

        std::map<std::string, long long> expectedSent;
        const std::string expected = expectedTraffic(*workload, options.onlyType, expectedSent);
        const std::string received = m_proxy->received().substr(m_start);
        QCOMPARE(received.size(), expected.size());
        QVERIFY2(received == expected, "the server received other bytes than the workload's commands");
        QCOMPARE(pass->sent, expectedSent);
        long long commands = 0;
        for (const auto &entry : expectedSent)
            commands += entry.second;
        QCOMPARE(pass->commands, commands);
        QCOMPARE(pass->events, workload->describe().events);
        QVERIFY2(pass->errors.empty(), qPrintable(pass->firstError));
        // Every event sends something: one pipeline per `perBatch` events, a tick after each
        // (the interval is 0) and one at the end.
        QCOMPARE(pass->batchLatencyUsec.size(), size_t((workload->describe().events + perBatch - 1) / perBatch));
        QCOMPARE(ticks, int(pass->batchLatencyUsec.size()) + 1);
        QVERIFY2(tickProblems.isEmpty(), qPrintable(tickProblems.join(QLatin1Char('\n'))));
        if (fair)
            scheduler.leave(0);
    }

    void errorsCountUnderTheirCommand_data()
    {
        QTest::addColumn<int>("perBatch");
        QTest::newRow("4 events per pipeline") << 4;
        QTest::newRow("40 events in one pipeline") << 40;
    }

    void errorsCountUnderTheirCommand()
    {
        QFETCH(int, perBatch);
        const MixedWorkload workload;
        PassOptions options;
        options.eventsPerBatch = perBatch;
        const Outcome<PassResult> pass = replayPass(workload, m_replay, options);
        QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));
        const long long n = MixedWorkload::kEvents;
        // The unknown command is counted apart, not as an error of the workload.
        const std::map<QString, long long> errors{{QStringLiteral("HSET: ") + QString::fromStdString(kWrongType), n}};
        QCOMPARE(pass->errors, errors);
        QCOMPARE(pass->refused, (std::map<QString, long long>{{QStringLiteral("CONFIG GET"), n}}));
        QCOMPARE(pass->unknownCommands, (std::map<QString, long long>{{QStringLiteral("NOSUCHCMD"), n}}));
        QCOMPARE(pass->firstError, QStringLiteral("HSET: ") + QString::fromStdString(kWrongType));
        QCOMPARE(pass->firstUnknownCommandError, QStringLiteral("ERR unknown command 'NOSUCHCMD'"));
        QCOMPARE(pass->commands, 6 * n + 1);
        // The commands around the errors ran: every SET, every INCRBY, the list.
        QCOMPARE(m_control.command({"GET", "c"})->text, std::to_string(n));
        QCOMPARE(m_control.command({"DBSIZE"})->integer, n + 2);
        QCOMPARE(m_control.command({"LLEN", "big"})->integer, 3000LL);
    }

    void theSendFilterKeepsCommandsOffTheWire()
    {
        const MixedWorkload workload;
        SendFilter filter;
        filter.commands = {"LRANGE"};
        filter.subcommands = {"CONFIG|GET"};
        PassOptions options;
        options.eventsPerBatch = 3;
        options.filter = &filter;
        const Outcome<PassResult> pass = replayPass(workload, m_replay, options);
        QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));
        const long long n = MixedWorkload::kEvents;
        QCOMPARE(pass->refused, (std::map<QString, long long>{{QStringLiteral("CONFIG GET"), n}, {QStringLiteral("LRANGE"), n}}));
        QCOMPARE(pass->commands, 4 * n + 1);
        QCOMPARE(pass->sent.count("LRANGE"), size_t(0));
        const std::string received = m_proxy->received().substr(m_start);
        QVERIFY(received.find("LRANGE") == std::string::npos);
        QVERIFY(received.find("CONFIG") == std::string::npos);
        QVERIFY(received.find("NOSUCHCMD") != std::string::npos);
    }

private:
    std::unique_ptr<ServerProcess> m_server;
    std::unique_ptr<RecordingProxy> m_proxy;
    RedisConnection m_control;
    RedisConnection m_replay;
    size_t m_start = 0;
};

QTEST_GUILESS_MAIN(TestPassReplayer)
#include "tst_passreplayer.moc"
