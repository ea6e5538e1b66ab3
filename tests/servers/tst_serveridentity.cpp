// Parsing what server binaries print for --version. The fixtures are the real lines printed by
// the Debian builds that scripts/fetch-servers caches (see tests/fixtures/versions/README.md).

#include "serveridentity.h"

#include <QFile>
#include <QtTest>

class TestServerIdentity : public QObject {
    Q_OBJECT

private:
    static QString fixture(const QString &name)
    {
        QFile file(QStringLiteral(VERSUS_FIXTURES "/versions/") + name);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("missing fixture %s", qPrintable(file.fileName()));
        return QString::fromUtf8(file.readAll());
    }

private slots:
    void parsesRealOutput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("product");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("allocator");
        QTest::addColumn<QString>("buildId");
        QTest::addColumn<QString>("gitSha");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("displayName");

        QTest::newRow("valkey 8.0") << "valkey-8.0.1.txt" << "valkey" << "8.0.1" << "jemalloc-5.3.0"
                                    << "39f7c371e0a96e3d" << "00000000" << "valkey-8.0.1" << "Valkey 8.0.1";
        QTest::newRow("valkey 8.1") << "valkey-8.1.1.txt" << "valkey" << "8.1.1" << "jemalloc-5.3.0"
                                    << "384b3c0d511f998a" << "00000000" << "valkey-8.1.1" << "Valkey 8.1.1";
        QTest::newRow("valkey 9.1") << "valkey-9.1.2.txt" << "valkey" << "9.1.2" << "jemalloc-5.3.1"
                                    << "9108e8f1788612b" << "00000000" << "valkey-9.1.2" << "Valkey 9.1.2";
        QTest::newRow("redis 7.0") << "redis-7.0.15.txt" << "redis" << "7.0.15" << "jemalloc-5.3.0"
                                   << "ae4d7c971a948f0" << "00000000" << "redis-7.0.15" << "Redis 7.0.15";
        QTest::newRow("dev build") << "valkey-dev-255.255.255.txt" << "valkey" << "255.255.255" << "libc"
                                   << "8e6a4f0c2b1d9e77" << "3c1a7d5b" << "valkey-dev-3c1a7d5b" << "Valkey dev build 3c1a7d5b";
    }

    void parsesRealOutput()
    {
        QFETCH(QString, file);
        const Outcome<ServerIdentity> identity = parseServerVersionOutput(fixture(file));
        QVERIFY2(identity.ok(), qPrintable(identity.error()));
        QTEST(identity->product, "product");
        QTEST(identity->version, "version");
        QTEST(identity->allocator, "allocator");
        QTEST(identity->buildId, "buildId");
        QTEST(identity->gitSha, "gitSha");
        QCOMPARE(identity->bits, 64);
        QTEST(identity->label(), "label");
        QTEST(identity->displayName(), "displayName");
    }

    void toleratesSurroundingBlankLines()
    {
        const Outcome<ServerIdentity> identity =
            parseServerVersionOutput(QStringLiteral("\n  ") + fixture(QStringLiteral("valkey-9.1.2.txt")) + QStringLiteral("\n\n"));
        QVERIFY2(identity.ok(), qPrintable(identity.error()));
        QCOMPARE(identity->label(), QStringLiteral("valkey-9.1.2"));
    }

    void rejectsOtherOutput_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("quoted");  // what the message must show of the output

        QTest::newRow("nothing") << "" << "printed nothing";
        QTest::newRow("blank lines") << "\n \n" << "printed nothing";
        QTest::newRow("ls --version")
            << "ls (GNU coreutils) 9.1\nCopyright (C) 2022 Free Software Foundation, Inc.\n"
            << "\"ls (GNU coreutils) 9.1 Copyright (C) 2022 Free Software Foundation, Inc.\"";
        QTest::newRow("junk") << "hello from a script" << "\"hello from a script\"";
        QTest::newRow("other product") << "KeyDB server v=6.3.4 sha=00000000:0 malloc=jemalloc-5.2.1 bits=64"
                                       << "\"KeyDB server v=6.3.4";
        QTest::newRow("client, not server") << "valkey-cli 9.1.2" << "\"valkey-cli 9.1.2\"";
        QTest::newRow("no version field") << "Valkey server sha=00000000:0 malloc=libc bits=64" << "Valkey server sha=";
        QTest::newRow("version not a number") << "Valkey server v=unstable sha=0:0 malloc=libc" << "v=unstable";
        QTest::newRow("server word missing") << "Valkey v=8.0.1" << "\"Valkey v=8.0.1\"";
    }

    void rejectsOtherOutput()
    {
        QFETCH(QString, output);
        QFETCH(QString, quoted);
        const Outcome<ServerIdentity> identity = parseServerVersionOutput(output);
        QVERIFY(!identity.ok());
        QVERIFY2(identity.error().contains(quoted), qPrintable(identity.error()));
    }

    void cutsLongJunkInTheMessage()
    {
        const Outcome<ServerIdentity> identity = parseServerVersionOutput(QString(5000, QLatin1Char('x')));
        QVERIFY(!identity.ok());
        QVERIFY2(identity.error().size() < 400, qPrintable(identity.error()));
    }
};

QTEST_GUILESS_MAIN(TestServerIdentity)
#include "tst_serveridentity.moc"
