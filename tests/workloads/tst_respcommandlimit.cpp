// One RESP command is bounded in total, not only per argument: a capture announcing 1,000,000
// bulk strings of 64 MiB is refused as soon as the header that passes the limit is read, before
// its bytes are, with the file, the command and the byte where it starts.

#include "captureparser.h"
#include "workloadfactory.h"

#include <QTemporaryDir>
#include <QtTest>

class RespCommandLimitTest : public QObject {
    Q_OBJECT

private slots:
    // Small limits stand in for the real ones (64 MiB per string, 512 MiB per command), which
    // would need a file of half a gigabyte.
    void aCommandOverTheTotalIsRefusedAtTheHeaderThatPassesIt()
    {
        std::vector<std::string> args;
        size_t consumed = 0;
        std::string error;
        // Three strings of 40 bytes fit a total of 100 only if the third is never announced.
        const std::string forty(40, 'x');
        const std::string twoFit = "*1000000\r\n$40\r\n" + forty + "\r\n$40\r\n" + forty + "\r\n";
        QCOMPARE(int(parseRespCommand(twoFit, args, consumed, error, 64, 100)), int(RespParse::NeedMore));
        QCOMPARE(error, std::string());
        // The third header is refused without its bytes: nothing of it has arrived.
        QCOMPARE(int(parseRespCommand(twoFit + "$40\r\n", args, consumed, error, 64, 100)), int(RespParse::Malformed));
        QCOMPARE(QString::fromStdString(error),
                 QStringLiteral("command larger than the limit of 100 bytes: its first 3 of 1000000 arguments announce 120 bytes"));
        // Exactly at the limit is accepted.
        const std::string atLimit = "*3\r\n$40\r\n" + forty + "\r\n$40\r\n" + forty + "\r\n$20\r\n" + std::string(20, 'y') + "\r\n";
        error.clear();
        QCOMPARE(int(parseRespCommand(atLimit, args, consumed, error, 64, 100)), int(RespParse::Complete));
        QCOMPARE(args.size(), size_t(3));
        QCOMPARE(consumed, atLimit.size());
    }

    void theDefaultLimitIsAServersLargestString()
    {
        QCOMPARE(maxRespCommandBytes, size_t(512) * 1024 * 1024);
    }

    // Through the capture reader: the message names the file, the command and its byte.
    void aCaptureAnnouncingHugeStringsNamesFileCommandAndByte()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.resp"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("*1\r\n$4\r\nPING\r\n*1000000\r\n$67108865\r\n");
        file.close();
        const Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY(!workload);
        QCOMPARE(workload.error(), QStringLiteral("huge.resp: command 2 at byte 14: bulk string of 67108865 bytes exceeds the "
                                                  "limit of 67108864"));
    }
};

QTEST_GUILESS_MAIN(RespCommandLimitTest)
#include "tst_respcommandlimit.moc"
