// Replay into real clusters: both built-in workloads and a capture, into cluster:1 and
// cluster:3 of valkey-8.0.1, 8.1.1, 9.1 and redis-7.0. Every key lands on the primary owning its
// slot (each node's keys are read back with SCAN), the cluster holds as many keys as a
// standalone server given the same replay, the commandstats summed over the nodes count
// exactly the commands sent, and no process is left afterwards.

#include "clusterrouting.h"
#include "clusterslots.h"
#include "commandkeys.h"
#include "localcluster.h"
#include "passreplayer.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "workloadfactory.h"

#include <QTemporaryDir>
#include <QtTest>

namespace {


// Every key of the node behind `connection`, by SCAN.
std::vector<std::string> keysOfNode(RedisConnection &connection)
{
    std::vector<std::string> keys;
    std::string cursor = "0";
    do {
        const Outcome<Reply> reply = connection.command({"SCAN", cursor, "COUNT", "1000"});
        if (!reply || reply->elements.size() != 2)
            return {};
        cursor = reply->elements[0].text;
        for (const Reply &key : reply->elements[1].elements)
            keys.push_back(key.text);
    } while (cursor != "0");
    return keys;
}

long long callsOf(RedisConnection &connection, const std::vector<std::string> &names)
{
    const Outcome<Reply> info = connection.command({"INFO", "commandstats"});
    if (!info)
        return -1;
    long long calls = 0;
    const QString text = QString::fromStdString(info->text);
    for (const std::string &name : names) {
        const QString prefix = QStringLiteral("cmdstat_%1:calls=").arg(QString::fromStdString(name).toLower());
        const int at = text.indexOf(prefix);
        if (at >= 0)
            calls += text.mid(at + prefix.size()).section(QLatin1Char(','), 0, 0).toLongLong();
    }
    return calls;
}

std::shared_ptr<Workload> workloadNamed(const QString &name, const QString &captureFile)
{
    std::map<QString, QString> parameters;
    if (name == QLatin1String("hash-ttl"))
        parameters[QStringLiteral("keys")] = QStringLiteral("300");
    const Outcome<std::shared_ptr<Workload>> made =
        makeWorkload(name == QLatin1String("capture") ? captureFile : name, parameters, QString(),
                     name == QLatin1String("ecommerce") ? 400 : 0, false);
    return made ? made.value() : nullptr;
}

// A command file: one command per line, multi-key commands inside one hash tag.
QString writeCapture(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("capture.txt"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    for (int i = 0; i < 300; ++i) {
        file.write(QStringLiteral("SET session:%1 token-%1\n").arg(i).toUtf8());
        file.write(QStringLiteral("HSET user:%1 name n%1 visits %1\n").arg(i).toUtf8());
        file.write(QStringLiteral("GET session:%1\n").arg(i / 2).toUtf8());
        if (i % 10 == 0)
            file.write(QStringLiteral("MSET {cart:%1}:a 1 {cart:%1}:b 2\n").arg(i).toUtf8());
    }
    return path;
}

} // namespace

class ClusterReplayTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void replaysIntoClusters_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("workload");
        QTest::addColumn<int>("primaries");
        for (const char *server : {"valkey-8.0.1", "valkey-8.1.1", "valkey-9.1.", "redis-7.0."}) {
            for (const char *workload : {"ecommerce", "hash-ttl", "capture"}) {
                for (int primaries : {1, 3})
                    QTest::addRow("%s %s cluster:%d", server, workload, primaries) << server << workload << primaries;
            }
        }
    }

    void replaysIntoClusters()
    {
        QFETCH(QString, server);
        QFETCH(QString, workload);
        QFETCH(int, primaries);
        const std::optional<ServerSpec> found = ServerTestHelpers::findFetchedServer(server);
        if (!found)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({server}));
        const ServerSpec spec = *found;
        QTemporaryDir dir;
        const std::shared_ptr<Workload> replayed = workloadNamed(workload, writeCapture(dir));
        QVERIFY(replayed);
        const Outcome<std::vector<std::string>> sent = commandNamesSent(*replayed);
        QVERIFY(sent);
        const std::vector<std::string> names = sent.value();

        const long long standaloneKeys = standaloneKeyCount(spec, *replayed);
        QVERIFY(standaloneKeys > 0);

        std::vector<qint64> pids;
        {
            LocalCluster cluster(spec, primaries);
            const Status started = cluster.start();
            QVERIFY2(started, qPrintable(started ? QString() : started.error()));
            RedisConnection control;
            QVERIFY(cluster.node(0).connect(control, 5000));
            const Outcome<CommandKeys> keys = CommandKeys::fromServer(control, names);
            QVERIFY(keys);
            QVERIFY(checkWorkloadForCluster(*replayed, keys.value()));
            const ClusterRouting routing(keys.value(), cluster.topology());

            std::vector<std::unique_ptr<RedisConnection>> connections;
            std::vector<RedisConnection *> targets;
            for (int i = 0; i < cluster.size(); ++i) {
                pids.push_back(cluster.node(i).pid());
                connections.push_back(std::make_unique<RedisConnection>());
                QVERIFY(connections.back()->connectTcp(cluster.node(i).host(), cluster.node(i).port(), 5000, QStringLiteral("replay")));
                QVERIFY(connections.back()->auth(cluster.node(i).replayCredentials()));
                targets.push_back(connections.back().get());
            }
            PassOptions options;
            options.eventsPerBatch = 16;
            options.routing = &routing;
            const Outcome<PassResult> pass = replayPass(*replayed, targets, options);
            QVERIFY2(pass, qPrintable(pass ? QString() : pass.error()));
            // HSETEX and HEXPIRE are unknown to the older versions: answered by the first node, and
            // counted apart from the workload's errors, of which there are none.
            QCOMPARE(pass->errors, (std::map<QString, long long>{}));
            long long unknown = 0;
            for (const auto &[command, count] : pass->unknownCommands)
                unknown += count;

            long long clusterKeys = 0;
            long long calls = 0;
            for (int i = 0; i < cluster.size(); ++i) {
                RedisConnection node;
                QVERIFY(cluster.node(i).connect(node, 5000));
                const auto [first, last] = cluster.slotRange(i);
                for (const std::string &key : keysOfNode(node)) {
                    const int slot = keyHashSlot(key);
                    QVERIFY2(slot >= first && slot <= last,
                             qPrintable(QStringLiteral("%1 (slot %2) on node %3 (slots %4-%5)")
                                            .arg(QString::fromStdString(key)).arg(slot).arg(i + 1).arg(first).arg(last)));
                    ++clusterKeys;
                }
                calls += callsOf(node, names);
            }
            QCOMPARE(clusterKeys, standaloneKeys);
            QCOMPARE(calls, pass->commands - unknown);
            if (primaries == 3)
                QVERIFY(pass->commands > 0);
        }
        for (const qint64 pid : pids)
            QVERIFY(!ServerTestHelpers::processAlive(pid));
    }

private:
    // The same replay into one standalone server: its DBSIZE.
    static long long standaloneKeyCount(const ServerSpec &spec, const Workload &workload)
    {
        ServerProcess server(spec);
        if (!server.start())
            return -1;
        RedisConnection replay;
        if (!replay.connectTcp(server.host(), server.port(), 5000, QStringLiteral("replay")) || !replay.auth(server.replayCredentials()))
            return -1;
        PassOptions options;
        options.eventsPerBatch = 16;
        if (!replayPass(workload, replay, options))
            return -1;
        RedisConnection control;
        if (!server.connect(control, 5000))
            return -1;
        const Outcome<Reply> size = control.command({"DBSIZE"});
        return size ? size->integer : -1;
    }
};

QTEST_GUILESS_MAIN(ClusterReplayTest)
#include "tst_clusterreplay.moc"
