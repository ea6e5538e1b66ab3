// A misbehaving endpoint cannot hang Versus or fill its memory: every reply is bounded in size
// (16 MiB for a reply Versus builds, 1 MiB for one reply line) and every request in total time (the connection's timeout,
// however slowly the bytes trickle). The peer is a real TCP server on a thread of its own
// (tests/support/misbehavingserver.h), answering the way a broken or hostile endpoint does.

#include "misbehavingserver.h"
#include "redisconnection.h"

#include <QElapsedTimer>
#include <QtTest>
#include <sys/resource.h>

namespace {

const int timeoutMs = 2000;

long maxResidentMegabytes()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

} // namespace

class BoundedReplyTest : public QObject {
    Q_OBJECT

private slots:
    void everyReplyIsBounded_data()
    {
        QTest::addColumn<int>("behaviour");
        QTest::addColumn<int>("timeout");
        QTest::addColumn<QString>("expected");
        const QString tooLarge = QStringLiteral(
            "bad: PING: the reply passed 16777216 bytes, more than Versus accepts for one reply; the connection is closed");
        const QString timedOut = QStringLiteral("bad: PING: timed out after %1 ms").arg(timeoutMs);
        QTest::newRow("a reply line with no end")
            << int(MisbehavingServer::EndlessLine) << timeoutMs
            << QStringLiteral("bad: PING: a reply line passed 1048576 bytes without an end; the connection is closed");
        QTest::newRow("a bulk string announcing 4 GB") << int(MisbehavingServer::HugeBulkString) << timeoutMs << tooLarge;
        // Refused at its header: hiredis would allocate 800 MB of element pointers for it at once.
        QTest::newRow("an array of 100 million elements") << int(MisbehavingServer::HugeArray) << timeoutMs << tooLarge;
        QTest::newRow("one byte every 50 ms, never a CRLF") << int(MisbehavingServer::Trickle) << timeoutMs << timedOut;
        QTest::newRow("a 4 GB header, then silence") << int(MisbehavingServer::HeaderThenSilence) << timeoutMs << timedOut;
        // Each header alone is under the bound of a million elements; together they announce 6.3 million.
        QTest::newRow("seven nested arrays of 900,000") << int(MisbehavingServer::NestedArrays) << timeoutMs << tooLarge;
    }

    void everyReplyIsBounded()
    {
        QFETCH(int, behaviour);
        QFETCH(int, timeout);
        QFETCH(QString, expected);
        MisbehavingServer server{MisbehavingServer::Behaviour(behaviour)};
        RedisConnection connection;
        const Status connected = connection.connectTcp(QStringLiteral("127.0.0.1"), server.port(), timeout, QStringLiteral("bad"));
        QVERIFY2(connected, qPrintable(connected ? QString() : connected.error()));
        QElapsedTimer timer;
        timer.start();
        const Outcome<Reply> reply = connection.command({"PING"});
        const qint64 elapsed = timer.elapsed();
        QVERIFY(!reply);
        QCOMPARE(reply.error(), expected);
        QVERIFY(!connection.isConnected());
        // The whole request within its timeout (plus scheduling slack), not one timeout per read.
        QVERIFY2(elapsed < timeout + 1500, qPrintable(QString::number(elapsed)));
        // At most 16 MiB of reply plus hiredis's objects for it; far from the 4 GB (or the 800 MB
        // table of 100 million element pointers) announced.
        QVERIFY2(maxResidentMegabytes() < 200, qPrintable(QString::number(maxResidentMegabytes())));
    }

    // The replay's exchange() scans replies as they come and never holds a string: a line is
    // bounded as everywhere, a string by its announced size (a server's largest, 512 MiB), and
    // every reply in time.
    void anExchangeIsBounded_data()
    {
        QTest::addColumn<int>("behaviour");
        QTest::addColumn<QString>("expected");
        const QString tooLarge = QStringLiteral("bad: read reply: the reply passed 536870976 bytes, more than Versus "
                                                "accepts for one reply; the connection is closed");
        QTest::newRow("a reply line with no end")
            << int(MisbehavingServer::EndlessLine)
            << QStringLiteral("bad: read reply: a reply line passed 1048576 bytes without an end; the connection is closed");
        QTest::newRow("a bulk string announcing 4 GB") << int(MisbehavingServer::HugeBulkString) << tooLarge;
        QTest::newRow("a 4 GB header, then silence") << int(MisbehavingServer::HeaderThenSilence) << tooLarge;
        QTest::newRow("one byte every 50 ms, never a CRLF")
            << int(MisbehavingServer::Trickle) << QStringLiteral("bad: read reply: timed out after %1 ms").arg(timeoutMs);
    }

    void anExchangeIsBounded()
    {
        QFETCH(int, behaviour);
        QFETCH(QString, expected);
        MisbehavingServer server{MisbehavingServer::Behaviour(behaviour)};
        RedisConnection connection;
        QVERIFY(connection.connectTcp(QStringLiteral("127.0.0.1"), server.port(), timeoutMs, QStringLiteral("bad")));
        QElapsedTimer timer;
        timer.start();
        const Status exchanged = connection.exchange("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n", 1);
        QVERIFY(!exchanged);
        QCOMPARE(exchanged.error(), expected);
        QVERIFY(!connection.isConnected());
        QVERIFY2(timer.elapsed() < timeoutMs + 1500, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(maxResidentMegabytes() < 200, qPrintable(QString::number(maxResidentMegabytes())));
    }
};

QTEST_GUILESS_MAIN(BoundedReplyTest)
#include "tst_boundedreply.moc"
