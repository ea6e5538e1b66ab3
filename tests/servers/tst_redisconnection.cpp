// RedisConnection against a real server: binary-safe commands, every reply kind, pipelining
// through appendCommand/flush/readReply, the replay's exchange(), AUTH, and the transport
// failures that must become Errors naming the server.

#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QTest>

#include <csignal>

using namespace ServerTestHelpers;

namespace {

std::string resp(const std::vector<std::string> &args)
{
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string &arg : args)
        out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    return out;
}

QString describe(const Reply &reply)
{
    switch (reply.kind) {
    case Reply::Kind::Nil: return QStringLiteral("nil");
    case Reply::Kind::Status: return QStringLiteral("status:") + QString::fromStdString(reply.text);
    case Reply::Kind::Error: return QStringLiteral("error:") + QString::fromStdString(reply.text);
    case Reply::Kind::Integer: return QStringLiteral("integer:") + QString::number(reply.integer);
    case Reply::Kind::String: return QStringLiteral("string:") + QString::fromStdString(reply.text);
    case Reply::Kind::Array: {
        QStringList parts;
        for (const Reply &element : reply.elements)
            parts << describe(element);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    }
    return QString();
}

} // namespace

class TestRedisConnection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void replyKinds_data();
    void replyKinds();
    void binarySafe();
    void pipelineWithErrors();
    void pipelineLargeReplies();
    void exchangeNamesErrorsByPlace();
    void exchangeLargeRequestsAndReplies();
    void authentication();
    void refusedConnection();
    void notConnected();
    void serverKilledMidConversation();
    void serverStoppedTimesOut();
    void exchangeTimesOutAndFailsOnAKilledServer();

private:
    std::unique_ptr<ServerProcess> m_server;
    RedisConnection m_connection;
};

void TestRedisConnection::initTestCase()
{
    std::signal(SIGPIPE, SIG_IGN);
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    m_server = std::make_unique<ServerProcess>(spec);
    const Status started = m_server->start();
    QVERIFY2(started, qPrintable(started.error()));
}

void TestRedisConnection::cleanupTestCase()
{
    m_connection.close();
    m_server.reset();
}

void TestRedisConnection::init()
{
    const Status connected = m_server->connect(m_connection, ServerTestHelpers::kHealthyReplyMs);
    QVERIFY2(connected, qPrintable(connected.error()));
    Outcome<Reply> flushed = m_connection.command({"FLUSHALL", "SYNC"});
    QVERIFY2(flushed && !flushed->isError(), qPrintable(flushed ? QString::fromStdString(flushed->text) : flushed.error()));
}

void TestRedisConnection::replyKinds_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("expected");

    QTest::newRow("status") << QStringList{"SET", "k", "v"} << "status:OK";
    QTest::newRow("string") << QStringList{"ECHO", "hello"} << "string:hello";
    QTest::newRow("integer") << QStringList{"INCRBY", "n", "-42"} << "integer:-42";
    QTest::newRow("nil") << QStringList{"GET", "missing"} << "nil";
    QTest::newRow("error is a value") << QStringList{"NOSUCHCOMMAND", "x"}
                                      << "error:ERR unknown command 'NOSUCHCOMMAND', with args beginning with: 'x' ";
    QTest::newRow("array with nil") << QStringList{"MGET", "missing", "missing2"} << "[nil, nil]";
    QTest::newRow("empty array") << QStringList{"KEYS", "none:*"} << "[]";
    QTest::newRow("nested array") << QStringList{"SCAN", "0", "MATCH", "none:*"} << "[string:0, []]";
}

void TestRedisConnection::replyKinds()
{
    QFETCH(QStringList, command);
    QFETCH(QString, expected);
    std::vector<std::string> args;
    for (const QString &arg : command)
        args.push_back(arg.toStdString());
    Outcome<Reply> reply = m_connection.command(args);
    QVERIFY2(reply, qPrintable(reply.error()));
    QCOMPARE(describe(reply.value()), expected);
    QVERIFY(m_connection.isConnected());
}

void TestRedisConnection::binarySafe()
{
    const std::string key("bin\0key \r\n", 10);
    const std::string value("\0\x01\xff\r\n$3\r\n*", 10);
    Outcome<Reply> set = m_connection.command({"SET", key, value});
    QVERIFY2(set && set->text == "OK", qPrintable(set ? QString::fromStdString(set->text) : set.error()));
    Outcome<Reply> get = m_connection.command({"GET", key});
    QVERIFY(get);
    QCOMPARE(get->kind, Reply::Kind::String);
    QCOMPARE(get->text.size(), value.size());
    QVERIFY(get->text == value);
    Outcome<Reply> length = m_connection.command({"STRLEN", key});
    QCOMPARE(length->integer, 10LL);
}

void TestRedisConnection::pipelineWithErrors()
{
    // 1000 commands appended before one flush; every 100th one fails, and the replies are
    // read in order.
    bool appended = true;
    for (int i = 0; i < 1000; ++i) {
        if (i % 100 == 99)
            appended = m_connection.appendCommand({"HSET", "not-a-hash-" + std::to_string(i / 100)}) && appended;   // wrong number of args
        else
            appended = m_connection.appendCommand({"INCR", "counter"}) && appended;
    }
    QVERIFY(appended);
    const Status flushed = m_connection.flush();
    QVERIFY2(flushed, qPrintable(flushed.error()));

    QStringList errors;
    long long lastCounter = 0;
    for (int i = 0; i < 1000; ++i) {
        Outcome<Reply> reply = m_connection.readReply();
        QVERIFY2(reply, qPrintable(reply.error()));
        if (reply->isError()) {
            errors << QStringLiteral("%1 %2").arg(i).arg(QString::fromStdString(reply->text));
        } else {
            QCOMPARE(reply->kind, Reply::Kind::Integer);
            lastCounter = reply->integer;
        }
    }
    // The last value is #998's: 999 commands, 9 of them failed HSETs.
    QCOMPARE(lastCounter, 990);
    QStringList expected;
    for (int i = 99; i < 1000; i += 100)
        expected << QStringLiteral("%1 ERR wrong number of arguments for 'hset' command").arg(i);
    QCOMPARE(errors, expected);

    // The connection is still in step: a plain command gets its own reply.
    Outcome<Reply> get = m_connection.command({"GET", "counter"});
    QCOMPARE(QString::fromStdString(get->text), QStringLiteral("990"));

    // An error reply in a pipeline leaves the next command its own reply.
    QVERIFY(m_connection.appendCommand({"HSET", "h"}));
    QVERIFY(m_connection.appendCommand({"PING"}));
    QVERIFY(m_connection.flush());
    QCOMPARE(m_connection.readReply()->isError(), true);
    QCOMPARE(m_connection.readReply()->text, std::string("PONG"));
}

void TestRedisConnection::pipelineLargeReplies()
{
    // Replies bigger than one read buffer, and nested arrays, read in a pipeline.
    std::vector<std::string> push{"RPUSH", "list"};
    for (int i = 0; i < 5000; ++i)
        push.push_back(std::string(100, char('a' + i % 26)));
    Outcome<Reply> pushed = m_connection.command(push);
    QCOMPARE(pushed->integer, 5000);

    for (int i = 0; i < 20; ++i) {
        QVERIFY(m_connection.appendCommand({"LRANGE", "list", "0", "-1"}));
        QVERIFY(m_connection.appendCommand({"SCAN", "0", "COUNT", "10"}));
    }
    QVERIFY(m_connection.flush());
    for (int i = 0; i < 40; ++i) {
        Outcome<Reply> reply = m_connection.readReply();
        QVERIFY2(reply, qPrintable(reply.error()));
        QVERIFY(!reply->isError());
        // LRANGE: every element; SCAN: a cursor and an array of keys.
        QCOMPARE(reply->elements.size(), i % 2 == 0 ? size_t(5000) : size_t(2));
    }
    Outcome<Reply> range = m_connection.command({"LRANGE", "list", "4999", "-1"});
    QCOMPARE(range->elements.size(), size_t(1));
    QCOMPARE(range->elements[0].text, std::string(100, char('a' + 4999 % 26)));
}

void TestRedisConnection::exchangeNamesErrorsByPlace()
{
    // The same 1000 commands as above, in one exchange: ten failed HSETs, at their places.
    std::string pipeline;
    for (int i = 0; i < 1000; ++i)
        pipeline += i % 100 == 99 ? resp({"HSET", "not-a-hash-" + std::to_string(i / 100)}) : resp({"INCR", "counter"});
    const Status exchanged = m_connection.exchange(pipeline, 1000);
    QVERIFY2(exchanged, qPrintable(exchanged.error()));
    const ReplyScanner &replies = m_connection.lastReplies();
    QCOMPARE(replies.replies(), size_t(1000));
    QStringList errors, expected;
    for (size_t i = 0; i < replies.errorCount(); ++i)
        errors << QStringLiteral("%1 %2").arg(replies.error(i).index).arg(QString::fromStdString(replies.error(i).text));
    for (int i = 99; i < 1000; i += 100)
        expected << QStringLiteral("%1 ERR wrong number of arguments for 'hset' command").arg(i);
    QCOMPARE(errors, expected);

    // In step afterwards, through hiredis and through another exchange.
    Outcome<Reply> get = m_connection.command({"GET", "counter"});
    QCOMPARE(QString::fromStdString(get->text), QStringLiteral("990"));
    QVERIFY(m_connection.exchange(resp({"INCR", "counter"}) + resp({"NOSUCH"}), 2));
    QCOMPARE(m_connection.lastReplies().errorCount(), size_t(1));
    QCOMPARE(m_connection.lastReplies().error(0).index, size_t(1));
    QCOMPARE(m_connection.command({"GET", "counter"})->text, std::string("991"));
}

void TestRedisConnection::exchangeLargeRequestsAndReplies()
{
    // A request of 12 MB (more than the socket takes at once, so replies come while it is
    // still written) and replies of 20 × 1 MB (many reads of the 256 KiB buffer).
    const std::string value(1 << 20, 'v');
    std::string request;
    for (int i = 0; i < 12; ++i)
        request += resp({"SET", "big:" + std::to_string(i), value});
    for (int i = 0; i < 20; ++i)
        request += resp({"GET", "big:" + std::to_string(i % 12)}) + resp({"SCAN", "0", "COUNT", "5"});
    request += resp({"HSET", "h"});
    const Status exchanged = m_connection.exchange(request, 12 + 40 + 1);
    QVERIFY2(exchanged, qPrintable(exchanged.error()));
    QCOMPARE(m_connection.lastReplies().replies(), size_t(53));
    QCOMPARE(m_connection.lastReplies().errorCount(), size_t(1));
    QCOMPARE(m_connection.lastReplies().error(0).index, size_t(52));
    Outcome<Reply> length = m_connection.command({"STRLEN", "big:11"});
    QCOMPARE(length->integer, 1LL << 20);
}

void TestRedisConnection::authentication()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.1.1");
    ServerProcess guarded(spec);
    guarded.setExtraArguments({QStringLiteral("--requirepass"), QStringLiteral("s3cret")});
    const Status started = guarded.start();
    QVERIFY2(started, qPrintable(started.error()));

    // --requirepass replaces the password of the config file, which guarded.connect() would send.
    RedisConnection connection;
    QVERIFY(connection.connectTcp(guarded.host(), guarded.port(), 2000, guarded.connectionName()));
    Outcome<Reply> denied = connection.command({"SET", "k", "v"});
    QVERIFY(denied && denied->isError());
    QVERIFY2(denied->text.rfind("NOAUTH", 0) == 0, denied->text.c_str());

    const Status wrong = connection.auth(QStringLiteral("wrong"));
    QVERIFY(!wrong);
    QVERIFY2(wrong.error().startsWith(guarded.connectionName() + QStringLiteral(": AUTH: WRONGPASS")), qPrintable(wrong.error()));
    const Status right = connection.auth(QStringLiteral("s3cret"));
    QVERIFY2(right, qPrintable(right.error()));
    Outcome<Reply> set = connection.command({"SET", "k", "v"});
    QCOMPARE(QString::fromStdString(set->text), QStringLiteral("OK"));

    const qint64 pid = guarded.pid();
    guarded.stop();   // SHUTDOWN is refused without AUTH; stop() must still end it
    QVERIFY(!processAlive(pid));
}

void TestRedisConnection::refusedConnection()
{
    // A port nobody listens on: the one a stopped server just gave up.
    VERSUS_REQUIRE_SERVER(spec, "redis-7.0.");
    ServerProcess server(spec);
    QVERIFY(server.start());
    const int port = server.port();
    server.stop();

    RedisConnection connection;
    const Status connected = connection.connectTcp(QStringLiteral("127.0.0.1"), port, 500, QStringLiteral("gone"));
    QCOMPARE(connected.error(), QStringLiteral("gone: cannot connect to 127.0.0.1:%1: Connection refused").arg(port));
    QVERIFY(!connection.isConnected());
}

void TestRedisConnection::notConnected()
{
    RedisConnection connection;
    QCOMPARE(connection.command({"PING"}).error(), QStringLiteral(": PING: not connected"));
    QVERIFY(!connection.flush());
    QVERIFY(!connection.readReply());
    QCOMPARE(connection.appendCommand({"PING"}).error(), QStringLiteral(": append: not connected"));
}

void TestRedisConnection::serverKilledMidConversation()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.1");
    ServerProcess server(spec);
    QVERIFY(server.start());
    RedisConnection connection;
    QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    QVERIFY(connection.appendCommand({"PING"}));
    QCOMPARE(::kill(pid_t(server.pid()), SIGKILL), 0);
    QTRY_VERIFY(!server.isRunning());

    // Flushing into a dead socket and reading from it both fail, naming the server.
    Status flushed = connection.flush();
    Outcome<Reply> read = flushed ? connection.readReply() : Outcome<Reply>(Error{flushed.error()});
    QVERIFY(!read);
    QVERIFY2(read.error().startsWith(server.connectionName() + QStringLiteral(": ")), qPrintable(read.error()));
    QVERIFY(!connection.isConnected());
    QVERIFY(!connection.lastErrorWasTimeout());
    server.stop();
}

void TestRedisConnection::serverStoppedTimesOut()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.1.1");
    ServerProcess server(spec);
    QVERIFY(server.start());
    RedisConnection connection;
    QVERIFY(server.connect(connection, 200));
    QCOMPARE(::kill(pid_t(server.pid()), SIGSTOP), 0);

    QVERIFY(connection.appendCommand({"INCR", "x"}));
    QVERIFY(connection.flush());   // the kernel takes the bytes even though nobody reads them
    Outcome<Reply> read = connection.readReply();
    QVERIFY(!read);
    QCOMPARE(read.error(), server.connectionName() + QStringLiteral(": read reply: timed out after 200 ms"));
    QVERIFY(connection.lastErrorWasTimeout());
    QVERIFY(!connection.isConnected());
    server.stop();
    QVERIFY(!server.isRunning());
}

void TestRedisConnection::exchangeTimesOutAndFailsOnAKilledServer()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.1.1");
    ServerProcess server(spec);
    QVERIFY(server.start());
    RedisConnection connection;
    QVERIFY(server.connect(connection, 200));
    QCOMPARE(::kill(pid_t(server.pid()), SIGSTOP), 0);
    const Status stopped = connection.exchange(resp({"INCR", "x"}), 1);
    QCOMPARE(stopped.error(), server.connectionName() + QStringLiteral(": read reply: timed out after 200 ms"));
    QVERIFY(connection.lastErrorWasTimeout());
    QVERIFY(!connection.isConnected());
    QCOMPARE(connection.exchange(resp({"PING"}), 1).error(), server.connectionName() + QStringLiteral(": write: not connected"));

    QCOMPARE(::kill(pid_t(server.pid()), SIGCONT), 0);
    QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    QCOMPARE(::kill(pid_t(server.pid()), SIGKILL), 0);
    QTRY_VERIFY(!server.isRunning());
    const Status killed = connection.exchange(resp({"PING"}), 1);
    QVERIFY(!killed);
    QVERIFY2(killed.error().startsWith(server.connectionName() + QStringLiteral(": ")), qPrintable(killed.error()));
    QVERIFY(!connection.isConnected());
    QVERIFY(!connection.lastErrorWasTimeout());
    server.stop();
}

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
