// A pass over several connections into one real valkey-9.1 (--clients, replaylanes.h): every
// command on one key keeps its order however many lanes share the work, since each APPEND's
// value ends up exactly in event order; a command across slots or without keys waits for every
// lane and goes alone; every lane carries part of the work; and the counts are the workload's.

#include "clusterslots.h"
#include "keyrouting.h"
#include "passreplayer.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QtTest>
#include <csignal>

namespace replaylanes {

// Event i appends "i," to one of 37 plain keys and to two keys sharing the hash tag {t<i % 11>};
// every 25th event also appends to a key and then sets it and another key in a different slot at
// once (MSET), and pings.
class AppendWorkload : public Workload {
public:
    static constexpr int kEvents = 600;
    WorkloadInfo describe() const override
    {
        WorkloadInfo info;
        info.name = QStringLiteral("append");
        info.events = kEvents;
        return info;
    }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>());
    }

    // On a lane other than the first for 4, 8 and 16 lanes (checked in the test): an event that
    // goes alone puts its APPEND on the first lane too, else the MSET before it would overtake it.
    static constexpr const char *kMultiKey = "m:x";
    static std::string plainKey(int event) { return "k" + std::to_string(event % 37); }
    static std::string taggedKey(int event, const char *part) { return "{t" + std::to_string(event % 11) + "}:" + part; }

private:
    class Source : public CommandSource {
    public:
        bool next(EventCommands &out) override
        {
            if (m_next >= kEvents)
                return false;
            const int event = m_next++;
            const std::string value = std::to_string(event) + ",";
            out.clear();
            out.add("append", {"APPEND", plainKey(event), value});
            out.add("append", {"APPEND", taggedKey(event, "a"), value});
            out.add("append", {"APPEND", taggedKey(event, "b"), value});
            if (event % 25 == 0) {
                out.add("mset", {"APPEND", kMultiKey, "+"});
                out.add("mset", {"MSET", kMultiKey, value, "m:y", value});
                out.add("ping", {"PING"});
            }
            return true;
        }

    private:
        int m_next = 0;
    };
};

// What each key holds after the workload ran in order, one command after the other.
std::map<std::string, std::string> expectedValues()
{
    std::map<std::string, std::string> values;
    for (int event = 0; event < AppendWorkload::kEvents; ++event) {
        const std::string value = std::to_string(event) + ",";
        values[AppendWorkload::plainKey(event)] += value;
        values[AppendWorkload::taggedKey(event, "a")] += value;
        values[AppendWorkload::taggedKey(event, "b")] += value;
        if (event % 25 == 0) {
            values[AppendWorkload::kMultiKey] = value;
            values["m:y"] = value;
        }
    }
    return values;
}

// A capture's transactions, one command per event, between other keys' appends: each round
// queues an APPEND and discards it, then queues another and runs it.
class TransactionWorkload : public Workload {
public:
    static constexpr int kRounds = 40;
    WorkloadInfo describe() const override
    {
        WorkloadInfo info;
        info.name = QStringLiteral("transactions");
        info.events = kRounds * 8;
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
            static const std::vector<std::vector<std::string>> round{
                {"multi"}, {"APPEND", "tx", "discarded,"}, {"DISCARD"}, {"APPEND", "other:1", "o"},
                {"MULTI"}, {"APPEND", "tx", "ran,"},       {"EXEC"},    {"APPEND", "other:2", "o"}};
            if (m_next >= kRounds * int(round.size()))
                return false;
            out.clear();
            out.add().args = round[size_t(m_next++) % round.size()];
            return true;
        }

    private:
        int m_next = 0;
    };
};

} // namespace replaylanes

using namespace replaylanes;

class TestReplayLanes : public QObject {
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
        const Status routed = m_routing.prepare(m_control, m_workload, nullptr, false, QStringLiteral("valkey"));
        QVERIFY2(routed, qPrintable(routed ? QString() : routed.error()));
        QVERIFY(!m_routing.routing()->isCluster());
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
    }

    void oneKeysCommandsKeepTheirOrder_data()
    {
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("perBatch");
        QTest::addColumn<bool>("spin");
        QTest::newRow("1 client, 1 event per pipeline") << 1 << 1 << false;
        QTest::newRow("4 clients, 1 event per pipeline") << 4 << 1 << false;
        QTest::newRow("16 clients, 1 event per pipeline") << 16 << 1 << false;
        QTest::newRow("8 clients, 7 events per pipeline") << 8 << 7 << false;
        // As a pinned run waits: replies looked for without sleeping first.
        QTest::newRow("1 client, 1 event per pipeline, spinning") << 1 << 1 << true;
        QTest::newRow("8 clients, 7 events per pipeline, spinning") << 8 << 7 << true;
    }

    void oneKeysCommandsKeepTheirOrder()
    {
        QFETCH(int, clients);
        QFETCH(int, perBatch);
        QFETCH(bool, spin);
        QVERIFY(clients == 1 || keyHashSlot(AppendWorkload::kMultiKey) % clients != 0);
        QVERIFY(keyHashSlot(AppendWorkload::kMultiKey) != keyHashSlot("m:y"));
        std::vector<std::unique_ptr<RedisConnection>> owned;
        std::vector<RedisConnection *> lanes;
        for (int lane = 0; lane < clients; ++lane) {
            owned.push_back(std::make_unique<RedisConnection>());
            QVERIFY(owned.back()->connectTcp(QStringLiteral("127.0.0.1"), m_server->port(), 5000, QStringLiteral("lane")));
            QVERIFY(owned.back()->auth(m_server->replayCredentials()));
            lanes.push_back(owned.back().get());
        }
        PassOptions options;
        options.eventsPerBatch = perBatch;
        options.lanes = clients;
        options.routing = clients > 1 ? m_routing.routing() : nullptr;
        options.spinForReplies = spin;
        const Outcome<PassResult> pass = replayPass(m_workload, lanes, options);
        QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));
        QVERIFY2(pass->errors.empty(), qPrintable(pass->firstError));
        QCOMPARE(pass->events, AppendWorkload::kEvents);
        QCOMPARE(pass->commands, 3LL * AppendWorkload::kEvents + 3LL * (AppendWorkload::kEvents / 25));
        QVERIFY(pass->activeSeconds > 0);
        for (const auto &[key, value] : expectedValues()) {
            const Outcome<Reply> stored = m_control.command({"GET", key});
            QVERIFY(stored);
            QVERIFY2(stored->text == value, key.c_str());
        }
        if (clients == 1)
            return;
        // Every lane carried part of the work: each replay connection ran more than its AUTH.
        const Outcome<Reply> list = m_control.command({"CLIENT", "LIST"});
        QVERIFY(list);
        int working = 0;
        for (const QString &line : QString::fromStdString(list->text).split(QLatin1Char('\n'))) {
            static const QRegularExpression commands(QStringLiteral("\\btot-cmds=(\\d+)"));
            const QRegularExpressionMatch match = commands.match(line);
            if (line.contains(QLatin1String("user=versus-replay")) && match.hasMatch() && match.captured(1).toInt() > 1)
                ++working;
        }
        QCOMPARE(working, clients);
    }

    // MULTI … EXEC (or DISCARD) is one connection's state: the commands between go with it, so
    // what DISCARD drops never runs and what EXEC runs runs once.
    void aTransactionStaysOnOneConnection()
    {
        TransactionWorkload workload;
        KeyRouting routing;
        QVERIFY(routing.prepare(m_control, workload, nullptr, false, QStringLiteral("valkey")));
        QVERIFY(keyHashSlot("tx") % 8 != 0);   // its own lane would not be the transaction's
        std::vector<std::unique_ptr<RedisConnection>> owned;
        std::vector<RedisConnection *> lanes;
        for (int lane = 0; lane < 8; ++lane) {
            owned.push_back(std::make_unique<RedisConnection>());
            QVERIFY(owned.back()->connectTcp(QStringLiteral("127.0.0.1"), m_server->port(), 5000, QStringLiteral("lane")));
            QVERIFY(owned.back()->auth(m_server->replayCredentials()));
            lanes.push_back(owned.back().get());
        }
        PassOptions options;
        options.lanes = 8;
        options.routing = routing.routing();
        const Outcome<PassResult> pass = replayPass(workload, lanes, options);
        QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));
        QVERIFY2(pass->errors.empty(), qPrintable(pass->firstError));
        std::string ran;
        for (int round = 0; round < TransactionWorkload::kRounds; ++round)
            ran += "ran,";
        const Outcome<Reply> stored = m_control.command({"GET", "tx"});
        QVERIFY(stored);
        QCOMPARE(QString::fromStdString(stored->text), QString::fromStdString(ran));
    }

    // More connections per node than a routing can place commands over is refused up front.
    void lanesWithoutARoutingAreRefused()
    {
        RedisConnection first, second;
        PassOptions options;
        options.lanes = 2;
        const Outcome<PassResult> pass = replayPass(m_workload, {&first, &second}, options);
        QVERIFY(!pass);
        QCOMPARE(pass.error(), QStringLiteral("2 connections per node need the routing of the keys to them"));
    }

private:
    std::unique_ptr<ServerProcess> m_server;
    RedisConnection m_control;
    AppendWorkload m_workload;
    KeyRouting m_routing;
};

QTEST_GUILESS_MAIN(TestReplayLanes)
#include "tst_replaylanes.moc"
