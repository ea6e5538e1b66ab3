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

    // What a terminal would act on shows as its escape; a message's own line breaks and tabs stay.
    void terminalText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("lineBreaks");
        QTest::addColumn<QString>("shown");
        const int kept = int(LineBreaks::Kept);
        const int shown = int(LineBreaks::Shown);
        QTest::newRow("plain") << QStringLiteral("127.0.0.1:6379: nothing left") << kept << QStringLiteral("127.0.0.1:6379: nothing left");
        QTest::newRow("clear screen, home")
            << QStringLiteral("user\x1b[2J\x1b[H") << kept << QStringLiteral("user\\x1b[2J\\x1b[H");
        QTest::newRow("carriage return over a line") << QStringLiteral("a\rforged") << kept << QStringLiteral("a\\x0dforged");
        QTest::newRow("a C1 CSI and DEL") << QStringLiteral("a\u009b2Jb\x7f") << kept << QStringLiteral("a\\x9b2Jb\\x7f");
        QTest::newRow("bidi override and isolate")
            << QStringLiteral("abc\u202Edef\u2066g\u2069") << kept << QStringLiteral("abc\\u202edef\\u2066g\\u2069");
        QTest::newRow("every bidi control") << QStringLiteral("\u202A\u202B\u202C\u202D\u2067\u2068") << kept
                                            << QStringLiteral("\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068");
        QTest::newRow("line breaks and tabs kept") << QStringLiteral("a\n\tb\n") << kept << QStringLiteral("a\n\tb\n");
        QTest::newRow("line breaks shown") << QStringLiteral("a\nb") << shown << QStringLiteral("a\\nb");
        QTest::newRow("backslashes and quotes stay") << QStringLiteral("a\\b \"c\"") << kept << QStringLiteral("a\\b \"c\"");
        QTest::newRow("other scripts stay") << QStringLiteral("größe µs \U0001F600") << kept << QStringLiteral("größe µs \U0001F600");
    }
    void terminalText()
    {
        QFETCH(QString, text);
        QFETCH(int, lineBreaks);
        QFETCH(QString, shown);
        QCOMPARE(::terminalText(text, LineBreaks(lineBreaks)), shown);
    }
};

QTEST_GUILESS_MAIN(TestMessageText)
#include "tst_messagetext.moc"
