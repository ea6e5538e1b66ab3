// Whether an address a server named is one: an IP address, a host name (RFC 1123) or neither,
// before Versus resolves it or connects to it.

#include "hostport.h"

#include <QtTest>

class TestHostPort : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void addresses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ipAddress");
        QTest::addColumn<bool>("hostName");
        // Digits are letters of a host name too; an address is asked for first.
        QTest::newRow("IPv4") << QStringLiteral("10.0.0.5") << true << true;
        QTest::newRow("IPv6") << QStringLiteral("::1") << true << false;
        QTest::newRow("IPv6 with IPv4") << QStringLiteral("::ffff:10.0.0.5") << true << false;
        QTest::newRow("a host name") << QStringLiteral("node-1.cache.example") << false << true;
        QTest::newRow("localhost") << QStringLiteral("localhost") << false << true;
        QTest::newRow("a trailing line break") << QStringLiteral("localhost\n") << false << false;
        QTest::newRow("IPv4 then a line break") << QStringLiteral("127.0.0.1\n") << false << false;
        QTest::newRow("IPv4, NUL, more") << QString::fromLatin1("127.0.0.1\0evil", 14) << false << false;
        QTest::newRow("terminal escapes") << QStringLiteral("127.0.0.1\x1b[2J") << false << false;
        QTest::newRow("a space") << QStringLiteral("a b") << false << false;
        QTest::newRow("unknown endpoint") << QStringLiteral("?") << false << false;
        QTest::newRow("empty") << QString() << false << false;
        QTest::newRow("a label starting with a hyphen") << QStringLiteral("-a.example") << false << false;
        QTest::newRow("a label of 64 characters") << QString(64, QLatin1Char('a')) << false << false;
        QTest::newRow("non-ASCII") << QStringLiteral("n\u00f6de") << false << false;
    }
    void addresses()
    {
        QFETCH(QString, text);
        QFETCH(bool, ipAddress);
        QFETCH(bool, hostName);
        QCOMPARE(isIpAddress(text), ipAddress);
        QCOMPARE(isHostName(text), hostName);
    }

    void ports()
    {
        QVERIFY(isTcpPort(1) && isTcpPort(6379) && isTcpPort(65535));
        QVERIFY(!isTcpPort(0) && !isTcpPort(-1) && !isTcpPort(65536) && !isTcpPort(4294967297LL));
    }
};

QTEST_GUILESS_MAIN(TestHostPort)
#include "tst_hostport.moc"
