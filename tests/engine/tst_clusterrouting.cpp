// Routing to a cluster: each command to the primary owning its keys' slot, and the commands
// that cannot go to a cluster found before anything is sent, naming the event and command.
// The built-in workloads route entirely; a capture with a cross-slot MSET does not. A command the
// server does not know goes to the first primary; the encoder splits a batch by primary, each
// primary's commands in their order, each command's bytes findable to send it again. MOVED and
// ASK replies are read as the specification writes them, and a MOVED moves its slot.

#include "batchencoder.h"
#include "clusterredirects.h"
#include "clusterrouting.h"
#include "clusterslots.h"
#include "workloadfactory.h"

#include <QtTest>

namespace {

// Three primaries with the ranges a LocalCluster of three assigns.
ClusterTopology threePrimaries()
{
    ClusterTopology topology;
    for (int i = 0; i < 3; ++i) {
        ClusterPrimary primary;
        primary.port = 7000 + i;
        primary.ranges = {{i * kClusterSlots / 3, (i + 1) * kClusterSlots / 3 - 1}};
        topology.primaries.push_back(primary);
    }
    return topology;
}

CommandKeys singleKeyCommands()
{
    CommandKeys keys;
    for (const char *name : {"SET", "GET", "INCRBY", "HINCRBY", "ZADD", "PFADD", "LREM", "LPUSH", "LTRIM", "ZINCRBY",
                             "ZREMRANGEBYRANK", "ZREMRANGEBYSCORE", "SADD", "EXPIRE", "SISMEMBER", "HSETEX", "HSET",
                             "HEXPIRE"})
        keys.add(name, {1, 1, 1, false});
    keys.add("MSET", {1, -1, 2, false});
    keys.add("PING", {0, 0, 0, false});
    keys.add("ZUNIONSTORE", {1, 1, 1, true});
    return keys;
}

class CaptureWorkload : public Workload {
public:
    explicit CaptureWorkload(std::vector<std::vector<std::string>> commands) : m_commands(std::move(commands)) {}
    WorkloadInfo describe() const override { return {}; }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>(m_commands));
    }

private:
    class Source : public CommandSource {
    public:
        explicit Source(const std::vector<std::vector<std::string>> &commands) : m_commands(commands) {}
        bool next(EventCommands &out) override
        {
            if (m_next >= m_commands.size())
                return false;
            out.add().args = m_commands[m_next++];
            return true;
        }

    private:
        const std::vector<std::vector<std::string>> &m_commands;
        size_t m_next = 0;
    };
    std::vector<std::vector<std::string>> m_commands;
};

} // namespace

class TestClusterRouting : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void commandsGoToTheSlotsOwner()
    {
        const CommandKeys keys = singleKeyCommands();
        const ClusterRouting routing(keys, threePrimaries());
        for (const std::string key : {"a", "foo", "user:1:cart", "{user:1}:views", "123456789"}) {
            const int slot = keyHashSlot(key);
            const int expected = slot * 3 / kClusterSlots;
            QCOMPARE(routing.primaryOf({"SET", key, "v"}).value(), expected);
        }
        // Hash tags keep a multi-key command in one slot.
        QCOMPARE(routing.primaryOf({"MSET", "{u}a", "1", "{u}b", "2"}).value(), keyHashSlot("u") * 3 / kClusterSlots);
        QCOMPARE(routing.primaryOf({"PING"}).value(), 0);
        const Outcome<int> cross = routing.primaryOf({"MSET", "a", "1", "foo", "2"});
        QVERIFY(!cross);
        QCOMPARE(cross.error(), QStringLiteral("MSET a 1 foo 2: its keys are in different slots (%1, %2)")
                                    .arg(keyHashSlot("a")).arg(keyHashSlot("foo")));
        QCOMPARE(routing.primaryOf({"ZUNIONSTORE", "d", "2", "a", "b"}).error(),
                 QStringLiteral("ZUNIONSTORE d 2 a b: its keys cannot be told from its arguments, so it cannot be sent to a cluster"));
    }

    void builtInWorkloadsRouteEntirely_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("ecommerce") << QStringLiteral("ecommerce");
        QTest::newRow("hash-ttl") << QStringLiteral("hash-ttl");
    }

    void builtInWorkloadsRouteEntirely()
    {
        QFETCH(QString, name);
        Outcome<std::shared_ptr<Workload>> workload =
            makeWorkload(name, {}, QString(), name == QLatin1String("ecommerce") ? 2000 : 0, false);
        QVERIFY2(workload, qPrintable(workload ? QString() : workload.error()));
        const Status checked = checkWorkloadForCluster(*workload.value(), singleKeyCommands());
        QVERIFY2(checked, qPrintable(checked ? QString() : checked.error()));
        // Every command was looked at: without the keys of SET, the check stops at one.
        CommandKeys withoutSet = singleKeyCommands();
        withoutSet.add("SET", {1, 1, 1, true});
        const Status stopped = checkWorkloadForCluster(*workload.value(), withoutSet);
        QVERIFY(!stopped);
        QVERIFY2(stopped.error().contains(QLatin1String(": SET ")), qPrintable(stopped.error()));
    }

    // HSETEX on a version without it: any node answers "unknown command", so it goes where a
    // command without keys goes.
    void anUnknownCommandGoesToTheFirstPrimary()
    {
        CommandKeys keys;
        keys.add("SET", {1, 1, 1, false});
        const ClusterRouting routing(keys, threePrimaries());
        const Outcome<int> unknown = routing.primaryOf({"HSETEX", "foo", "FIELDS", "1", "a", "1"});
        QVERIFY(unknown);
        QCOMPARE(unknown.value(), 0);
        const Outcome<int> known = routing.primaryOf({"SET", "foo", "1"});   // slot 12182: the third
        QVERIFY(known);
        QCOMPARE(known.value(), 2);
    }

    void theEncoderSplitsABatchByPrimary()
    {
        std::vector<std::vector<std::string>> commands;
        for (int i = 0; i < 60; ++i)
            commands.push_back({"SET", "key:" + std::to_string(i), std::to_string(i)});
        const CaptureWorkload capture(commands);
        const CommandKeys keys = singleKeyCommands();
        const ClusterTopology topology = threePrimaries();
        const ClusterRouting routing(keys, topology);
        std::unique_ptr<CommandSource> source = std::move(capture.open().value());
        EncodeOptions options;
        options.eventsPerBatch = 60;
        options.routing = &routing;
        options.nodes = 3;
        BatchEncoder encoder(*source, options);
        EncodedBatch batch;
        QVERIFY(encoder.fill(batch));
        QCOMPARE(int(batch.nodes.size()), 3);
        QCOMPARE(batch.commandCount(), size_t(60));
        std::vector<std::string> expected(3);
        for (const auto &args : commands) {
            WorkloadCommand command;
            command.args = args;
            appendResp(command, expected[size_t(topology.primaryOfSlot(keyHashSlot(args[1])))]);
        }
        for (int node = 0; node < 3; ++node) {
            QVERIFY(!batch.nodes[size_t(node)].names.empty());
            QVERIFY2(batch.nodes[size_t(node)].resp == expected[size_t(node)], qPrintable(QString::number(node)));
        }
        // Each command's own bytes, to send it again after a redirect.
        const NodeRequest &first = batch.nodes[size_t(topology.primaryOfSlot(keyHashSlot("key:0")))];
        QCOMPARE(first.ends.size(), first.names.size());
        QCOMPARE(std::string(first.command(0)), std::string("*3\r\n$3\r\nSET\r\n$5\r\nkey:0\r\n$1\r\n0\r\n"));
        QCOMPARE(first.ends.back(), first.resp.size());
    }

    void redirectsAreReadAsTheSpecificationWritesThem_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<bool>("redirect");
        QTest::addColumn<bool>("ask");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("MOVED") << "MOVED 3999 127.0.0.1:6381" << true << false << 3999 << "127.0.0.1" << 6381;
        QTest::newRow("ASK") << "ASK 0 10.0.0.2:7000" << true << true << 0 << "10.0.0.2" << 7000;
        QTest::newRow("IPv6, unbracketed") << "MOVED 16383 ::1:7001" << true << false << 16383 << "::1" << 7001;
        QTest::newRow("unknown endpoint") << "MOVED 12 ?:7002" << true << false << 12 << "?" << 7002;
        QTest::newRow("another error") << "ERR wrong number of arguments" << false << false << -1 << "" << 0;
        QTest::newRow("no address") << "MOVED 12" << false << false << -1 << "" << 0;
        QTest::newRow("no port") << "ASK 12 127.0.0.1" << false << false << -1 << "" << 0;
        QTest::newRow("slot not a number") << "MOVED x 127.0.0.1:7000" << false << false << -1 << "" << 0;
    }

    void redirectsAreReadAsTheSpecificationWritesThem()
    {
        QFETCH(QString, reply);
        QFETCH(bool, redirect);
        Redirect read;
        QCOMPARE(parseRedirect(reply.toStdString(), read), redirect);
        if (!redirect)
            return;
        QTEST(read.ask, "ask");
        QTEST(read.slot, "slot");
        QTEST(QString::fromStdString(read.host), "host");
        QTEST(read.port, "port");
    }

    // A MOVED moves its slot for every later command; an ASK does not; a redirect to a node
    // outside the pass is taken, so that follow() can refuse it by name.
    void aMovedReplyMovesItsSlot()
    {
        const CommandKeys keys = singleKeyCommands();
        const ClusterTopology topology = threePrimaries();
        ClusterRouting routing(keys, topology);
        QCOMPARE(routing.slotRangesOf(0), QStringLiteral("0-5460"));
        ClusterRedirects redirects(routing, {{"127.0.0.1", 7000, ""}, {"127.0.0.1", 7001, ""}, {"127.0.0.1", 7002, ""}});
        const std::string key = "key:0";
        const int slot = keyHashSlot(key);
        const int owner = topology.primaryOfSlot(slot);
        const int other = (owner + 1) % 3;
        const std::vector<std::string> set{"SET", key, "v"};
        QCOMPARE(routing.primaryOf(set).value(), owner);
        QVERIFY(!redirects.take(size_t(owner), 0, "…", "ERR something else"));
        QVERIFY(redirects.take(size_t(owner), 0, "…", "ASK " + std::to_string(slot) + " 127.0.0.1:" + std::to_string(7000 + other)));
        QCOMPARE(routing.primaryOf(set).value(), owner);
        QVERIFY(redirects.take(size_t(owner), 0, "…", "MOVED " + std::to_string(slot) + " 127.0.0.1:" + std::to_string(7000 + other)));
        QCOMPARE(routing.primaryOf(set).value(), other);
        QCOMPARE(redirects.moved(), 1);
        QCOMPARE(redirects.asked(), 1);
        QVERIFY(routing.slotRangesOf(other).contains(QString::number(slot)));
        QVERIFY(redirects.take(size_t(owner), 0, "…", "MOVED 1 127.0.0.1:7999"));
        const Status followed = redirects.follow({}, {"SET"}, [](const std::string &, const std::string &) {});
        QVERIFY(!followed);
        QVERIFY2(followed.error().startsWith(QStringLiteral("the cluster redirected a command to 127.0.0.1:7999, a node that was not one of its primaries")),
                 qPrintable(followed.error()));
    }

    void aCrossSlotCommandIsFoundBeforeSending()
    {
        const CaptureWorkload capture({{"SET", "a", "1"}, {"GET", "a"}, {"MSET", "a", "1", "foo", "2"}, {"GET", "foo"}});
        const Status checked = checkWorkloadForCluster(capture, singleKeyCommands());
        QVERIFY(!checked);
        QCOMPARE(checked.error(), QStringLiteral("event 3: MSET a 1 foo 2: its keys are in different slots (%1, %2)")
                                      .arg(keyHashSlot("a")).arg(keyHashSlot("foo")));
    }
};

QTEST_GUILESS_MAIN(TestClusterRouting)
#include "tst_clusterrouting.moc"
