// A command's keys as CommandKeys reads them from COMMAND INFO are the keys the server itself
// finds (COMMAND GETKEYS), for single-key, multi-key, stepped and script commands on real
// servers; commands whose keys move with their arguments (other than scripts) have no answer.

#include "commandkeys.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QtTest>

namespace {

using Args = std::vector<std::string>;

std::vector<Args> sampleCommands()
{
    return {
        {"SET", "k", "v", "EX", "10"},
        {"GET", "k"},
        {"HSETEX", "h", "EX", "100", "FIELDS", "1", "f", "v"},
        {"MSET", "a", "1", "b", "2", "{t}c", "3"},
        {"DEL", "a", "b", "c"},
        {"MGET", "x", "y"},
        {"EXPIRE", "k", "5"},
        {"ZADD", "z", "1", "m"},
        {"RENAME", "old", "new"},
        {"EVAL", "return 1", "2", "k1", "k2", "arg"},
        {"EVALSHA", "0123456789012345678901234567890123456789", "1", "only", "x"},
        {"EVAL", "return 1", "0"},
        {"PING"},
    };
}

} // namespace

class CommandKeysTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keysAreTheServersOwn_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::newRow("valkey 9.1") << QStringLiteral("valkey-9.1.");
        QTest::newRow("redis 7.0") << QStringLiteral("redis-7.0.");
    }

    void keysAreTheServersOwn()
    {
        QFETCH(QString, prefix);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
        ServerProcess server(*spec);
        QVERIFY(server.start());
        RedisConnection connection;
        QVERIFY(server.connect(connection, 5000));
        std::vector<std::string> names;
        for (const Args &args : sampleCommands())
            names.push_back(args.front());
        names.push_back("ZUNIONSTORE");
        const Outcome<CommandKeys> keys = CommandKeys::fromServer(connection, names);
        QVERIFY2(keys, qPrintable(keys ? QString() : keys.error()));

        int compared = 0;
        for (const Args &args : sampleCommands()) {
            Args ask{"COMMAND", "GETKEYS"};
            ask.insert(ask.end(), args.begin(), args.end());
            const Outcome<Reply> server = connection.command(ask);
            QVERIFY(server);
            const std::optional<std::vector<std::string_view>> found = keys->keysOf(args);
            if (server->isError()) {
                // Redis 7.0 asks for an argument after a command that takes none (PING).
                if (server->text.find("no key arguments") != std::string::npos
                    || server->text.find("wrong number of arguments for 'command|getkeys'") != std::string::npos) {
                    QVERIFY2(found && found->empty(), args.front().c_str());   // PING, EVAL with 0 keys
                } else {
                    // A command this version does not have (HSETEX on Redis 7.0): no answer.
                    QVERIFY2(server->text.find("Invalid command") != std::string::npos, server->text.c_str());
                    QVERIFY2(!found, args.front().c_str());
                }
                ++compared;
                continue;
            }
            QVERIFY2(found, args.front().c_str());
            std::vector<std::string> expected;
            for (const Reply &key : server->elements)
                expected.push_back(key.text);
            const std::vector<std::string> seen(found->begin(), found->end());
            QVERIFY2(seen == expected, args.front().c_str());
            ++compared;
        }
        QCOMPARE(compared, int(sampleCommands().size()));
        // Movable keys other than a script's are not guessed.
        QVERIFY(!keys->keysOf({"ZUNIONSTORE", "dest", "2", "a", "b"}));
        QVERIFY(!keys->keysOf({"NOSUCHCOMMAND", "k"}));
        server.stop();
    }

    void scriptCountsAreChecked()
    {
        const CommandKeys none;
        QVERIFY(!none.keysOf({"EVAL", "return 1", "3", "a"}));      // fewer keys than counted
        QVERIFY(!none.keysOf({"EVAL", "return 1", "-1"}));
        QVERIFY(!none.keysOf({"EVAL", "return 1", "99999999999"}));
        QCOMPARE(none.keysOf({"fcall", "f", "1", "k"})->size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(CommandKeysTest)
#include "tst_commandkeys.moc"
