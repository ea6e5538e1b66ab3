// Text from a server or a file inside a message: one line, every control and invisible
// formatting character escaped, and cut after a bound with its length said.

#include "messagetext.h"

#include <QtTest>

class TestMessageText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void quotedForMessage_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain") << QStringLiteral("127.0.0.1") << QStringLiteral("\"127.0.0.1\"");
        QTest::newRow("line breaks and a tab") << QStringLiteral("a\r\nb\tc") << QStringLiteral("\"a\\r\\nb\\tc\"");
        QTest::newRow("terminal escapes") << QStringLiteral("\x1b[2J\x1b]0;t\x07") << QStringLiteral("\"\\x1b[2J\\x1b]0;t\\x07\"");
        QTest::newRow("quote and backslash") << QStringLiteral("a\"b\\c") << QStringLiteral("\"a\\\"b\\\\c\"");
        QTest::newRow("NUL and DEL") << QString::fromLatin1("a\0b\x7f", 4) << QStringLiteral("\"a\\x00b\\x7f\"");
        QTest::newRow("a C1 control") << QString(QChar(0x9b)) << QStringLiteral("\"\\x9b\"");
        QTest::newRow("a right-to-left override") << QStringLiteral("abc\u202Edef") << QStringLiteral("\"abc\\u202edef\"");
        QTest::newRow("a line separator") << QStringLiteral("a\u2028b") << QStringLiteral("\"a\\u2028b\"");
        QTest::newRow("letters of other scripts stay") << QStringLiteral("größe \u00b5s \U0001F600")
                                                       << QStringLiteral("\"größe \u00b5s \U0001F600\"");
        QTest::newRow("cut after 80") << QString(100, QLatin1Char('a'))
                                      << QStringLiteral("\"%1\u2026\" (100 characters)").arg(QString(80, QLatin1Char('a')));
    }
    void quotedForMessage()
    {
        QFETCH(QString, text);
        QFETCH(QString, quoted);
        QCOMPARE(::quotedForMessage(text), quoted);
    }
};

QTEST_GUILESS_MAIN(TestMessageText)
#include "tst_messagetext.moc"
