// The replay's reply scanner: counts RESP2 replies and names the errors among them by place,
// whatever pieces the bytes arrive in, stops at the last expected reply, and keeps the bounds
// of every reply Versus reads.

#include "replyscanner.h"

#include <QtTest>

namespace {

const size_t maxLine = 64;
const size_t maxString = 1000;

// Every kind of reply, errors at places 2, 9 and 11; bulk strings and nested arrays whose
// bytes look like errors and line ends, and an error inside an array, which is no error reply.
const std::string stream = std::string("+OK\r\n")        // 0
    + ":1\r\n"                                              // 1
    + "-ERR first\r\n"                                      // 2
    + "$3\r\nfoo\r\n"                                       // 3
    + "$-1\r\n"                                             // 4
    + "*2\r\n$1\r\na\r\n-ERR nested\r\n"                    // 5
    + "*-1\r\n"                                             // 6
    + "*0\r\n"                                              // 7
    + "$12\r\n-ERR \r\n+OK\r\n\r\n"                         // 8: a string of "-ERR \r\n+OK\r\n"
    + "-WRONGTYPE second\r\n"                               // 9
    + "*2\r\n*2\r\n:1\r\n*1\r\n$0\r\n\r\n:2\r\n"            // 10
    + "-ERR a\nline\r\n";                                   // 11: a '\n' alone does not end a line
const size_t streamReplies = 12;

QStringList errorsOf(const ReplyScanner &scanner)
{
    QStringList errors;
    for (size_t i = 0; i < scanner.errorCount(); ++i)
        errors << QStringLiteral("%1 %2").arg(scanner.error(i).index).arg(QString::fromStdString(scanner.error(i).text));
    return errors;
}

const QStringList expectedErrors{QStringLiteral("2 ERR first"), QStringLiteral("9 WRONGTYPE second"),
                                 QStringLiteral("11 ERR a\nline")};

// Feeds `bytes` in pieces of at most `piece` bytes; the result of the last feed.
ReplyScanner::Result feedInPieces(ReplyScanner &scanner, const std::string &bytes, size_t piece, size_t *used)
{
    ReplyScanner::Result result = ReplyScanner::Result::Going;
    *used = 0;
    for (size_t at = 0; at < bytes.size() && result == ReplyScanner::Result::Going; at += piece) {
        size_t consumed = 0;
        result = scanner.feed(bytes.data() + at, std::min(piece, bytes.size() - at), &consumed);
        *used += consumed;
    }
    return result;
}

} // namespace

class TestReplyScanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countsRepliesInAnyPieces_data()
    {
        QTest::addColumn<int>("piece");
        for (int piece : {1, 2, 3, 5, 7, 16, 1 << 20})
            QTest::newRow(qPrintable(QStringLiteral("%1 bytes").arg(piece))) << piece;
    }

    void countsRepliesInAnyPieces()
    {
        QFETCH(int, piece);
        ReplyScanner scanner(maxLine, maxString);
        scanner.start(streamReplies);
        size_t used = 0;
        QCOMPARE(int(feedInPieces(scanner, stream, size_t(piece), &used)), int(ReplyScanner::Result::Done));
        QCOMPARE(used, stream.size());
        QCOMPARE(scanner.replies(), streamReplies);
        QCOMPARE(errorsOf(scanner), expectedErrors);
    }

    void everySplitInTwo()
    {
        ReplyScanner scanner(maxLine, maxString);
        for (size_t cut = 0; cut <= stream.size(); ++cut) {
            scanner.start(streamReplies);
            size_t first = 0, second = 0;
            const ReplyScanner::Result going = scanner.feed(stream.data(), cut, &first);
            QCOMPARE(int(going), int(cut == stream.size() ? ReplyScanner::Result::Done : ReplyScanner::Result::Going));
            const ReplyScanner::Result done = scanner.feed(stream.data() + cut, stream.size() - cut, &second);
            QCOMPARE(int(done), int(ReplyScanner::Result::Done));
            QCOMPARE(first + second, stream.size());
            QCOMPARE(errorsOf(scanner), expectedErrors);
        }
    }

    void stopsAtTheLastExpectedReply()
    {
        ReplyScanner scanner(maxLine, maxString);
        scanner.start(3);
        size_t used = 0;
        QCOMPARE(int(scanner.feed(stream.data(), stream.size(), &used)), int(ReplyScanner::Result::Done));
        // "+OK\r\n:1\r\n-ERR first\r\n": the rest belongs to no reply of this exchange.
        QCOMPARE(used, size_t(21));
        QCOMPARE(scanner.replies(), size_t(3));
        QCOMPARE(errorsOf(scanner), QStringList{QStringLiteral("2 ERR first")});

        // A new exchange starts from nothing; the errors of the last one are gone.
        scanner.start(1);
        QCOMPARE(int(scanner.feed(":5\r\n", 4, &used)), int(ReplyScanner::Result::Done));
        QCOMPARE(scanner.errorCount(), size_t(0));
        QCOMPARE(scanner.replies(), size_t(1));
    }

    void keepsTheBounds_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("result");
        QTest::addColumn<QString>("problem");
        const int tooLong = int(ReplyScanner::Result::LineTooLong);
        const int protocol = int(ReplyScanner::Result::ProtocolError);
        QTest::newRow("a line with no end") << QByteArray("+") + QByteArray(100, 'a') << tooLong << QString();
        QTest::newRow("a long line that ends") << QByteArray("-") + QByteArray(100, 'a') + "\r\n" << tooLong << QString();
        QTest::newRow("a line of '\\n's") << QByteArray("+") + QByteArray(100, '\n') << tooLong << QString();
        QTest::newRow("a string above the bound") << QByteArray("$1001\r\n") << int(ReplyScanner::Result::TooLarge) << QString();
        QTest::newRow("8 nested arrays") << QByteArray("*1\r\n").repeated(8) << protocol
                                          << QStringLiteral("No support for nested multi bulk replies with depth > 7");
        QTest::newRow("an unknown type byte") << QByteArray("?x\r\n") << protocol
                                               << QStringLiteral("Protocol error, got \"?\" as reply type byte");
        QTest::newRow("an empty line") << QByteArray("\r\n") << protocol
                                        << QStringLiteral("Protocol error, got \"\\x0d\" as reply type byte");
        QTest::newRow("a length that is no number") << QByteArray("$abc\r\n") << protocol
                                                     << QStringLiteral("Protocol error, bad bulk string length");
        QTest::newRow("an array length that is no number") << QByteArray("*1x\r\n") << protocol
                                                            << QStringLiteral("Protocol error, bad multi-bulk length");
    }

    void keepsTheBounds()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, result);
        QFETCH(QString, problem);
        ReplyScanner scanner(maxLine, maxString);
        scanner.start(1);
        size_t used = 0;
        // In one piece and byte by byte: the same verdict.
        QCOMPARE(int(scanner.feed(bytes.constData(), size_t(bytes.size()), &used)), result);
        QCOMPARE(QString::fromStdString(scanner.problem()), problem);
        scanner.start(1);
        QCOMPARE(int(feedInPieces(scanner, bytes.toStdString(), 1, &used)), result);
        QCOMPARE(scanner.replies(), size_t(0));
    }

    void aStringAtTheBoundIsSkipped()
    {
        ReplyScanner scanner(maxLine, maxString);
        scanner.start(2);
        const std::string bytes = "$1000\r\n" + std::string(1000, '-') + "\r\n-ERR after\r\n";
        size_t used = 0;
        QCOMPARE(int(feedInPieces(scanner, bytes, 64, &used)), int(ReplyScanner::Result::Done));
        QCOMPARE(errorsOf(scanner), QStringList{QStringLiteral("1 ERR after")});
    }
};

QTEST_GUILESS_MAIN(TestReplyScanner)
#include "tst_replyscanner.moc"
