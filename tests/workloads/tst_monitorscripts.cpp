// A MONITOR capture shows a script's call and, as [lua] lines, the commands the script ran.
// Only the call is replayed; the [lua] lines are counted, and a real server replaying the
// commands ends with each script applied once.

#include "captureworkload.h"
#include "monitorscript.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QtTest>

namespace {

const QString kFixture = QStringLiteral(VERSUS_FIXTURES "/workloads/monitor-scripts.txt");

std::vector<std::vector<std::string>> replayed(const Workload &workload, std::map<std::string, long long> *skipped)
{
    std::vector<std::vector<std::string>> commands;
    Outcome<std::unique_ptr<CommandSource>> source = workload.open();
    if (!source)
        return commands;
    EventCommands event;
    while (source.value()->next(event)) {
        for (const WorkloadCommand &command : event.commands)
            commands.push_back(command.args);
    }
    *skipped = source.value()->skipped();
    return commands;
}

} // namespace

class TestMonitorScripts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scriptLinesAreCountedNotReplayed()
    {
        CaptureWorkload workload(kFixture, CaptureFormat::Monitor, false);
        std::map<std::string, long long> skipped;
        const std::vector<std::vector<std::string>> commands = replayed(workload, &skipped);
        const std::vector<std::vector<std::string>> expected{
            {"EVAL", "redis.call('INCR', KEYS[1]) redis.call('RPUSH', 'log', ARGV[1]) return 1", "1", "c", "a"},
            {"INCR", "c"},
            {"eval", "return redis.call('RPUSH', 'log', ARGV[1])", "0", "b"},
        };
        QCOMPARE(commands, expected);
        QCOMPARE(skipped, (std::map<std::string, long long>{{kScriptLineLabel, 3}}));
        QCOMPARE(workload.describe().parameters.at(QStringLiteral("skipped")), QStringLiteral("3"));
    }

    // A capture that begins inside a script has no call to replay: its [lua] lines are sent.
    void scriptLinesWithoutTheirCallAreReplayed()
    {
        ScriptLineFilter filter;
        QVERIFY(!filter.ranByReplayedScript("1.1 [0 lua] \"INCR\" \"c\"", {"INCR", "c"}));
        QVERIFY(!filter.ranByReplayedScript("1.2 [0 127.0.0.1:1] \"GET\" \"c\"", {"GET", "c"}));
        QVERIFY(!filter.ranByReplayedScript("1.3 [0 lua] \"INCR\" \"c\"", {"INCR", "c"}));
        QVERIFY(!filter.ranByReplayedScript("1.4 [0 127.0.0.1:1] \"FCALL\" \"f\" \"0\"", {"FCALL", "f", "0"}));
        QVERIFY(filter.ranByReplayedScript("1.5 [0 lua] \"INCR\" \"c\"", {"INCR", "c"}));
        QVERIFY(!filter.ranByReplayedScript("1.6 [3 127.0.0.1:1] \"SET\" \"lua\" \"x\"", {"SET", "lua", "x"}));
    }

    // Replayed into a real server, each script ran once: c is 2 (the script's INCR and the
    // client's), the list holds a and b once each. Both lines replayed would give 3 and four items.
    void realServerAppliesEachScriptOnce()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.1");
        CaptureWorkload workload(kFixture, CaptureFormat::Monitor, false);
        std::map<std::string, long long> skipped;
        const std::vector<std::vector<std::string>> commands = replayed(workload, &skipped);
        ServerProcess server(spec);
        const Status started = server.start();
        QVERIFY2(started, qPrintable(started.error()));
        RedisConnection connection;
        QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
        for (const std::vector<std::string> &command : commands) {
            const Outcome<Reply> reply = connection.command(command);
            QVERIFY2(reply && !reply->isError(), reply ? reply->text.c_str() : qPrintable(reply.error()));
        }
        const Outcome<Reply> counter = connection.command({"GET", "c"});
        QVERIFY(counter);
        QCOMPARE(QString::fromStdString(counter->text), QStringLiteral("2"));
        const Outcome<Reply> length = connection.command({"LLEN", "log"});
        QVERIFY(length);
        QCOMPARE(length->integer, 2LL);
        connection.close();
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestMonitorScripts)
#include "tst_monitorscripts.moc"
