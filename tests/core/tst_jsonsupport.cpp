// parseJson builds the document itself, in time linear in its size (nlohmann's ordered_json
// parser looks each member up among those before it: a 1 MB bundle of one large object took
// 14 s; bench/bench_bundleload.cpp times it). What it builds must be what nlohmann's own parser
// builds: members in the document's order, a name given twice in its first place with its last
// value, errors at the same place, and the JSON path of a wrong value in messages.

#include "jsonsupport.h"

#include <QtTest>

namespace {

// An object of `members` members named m0, m1, … with small values of every kind.
QByteArray objectOf(int members)
{
    QByteArray text = "{";
    for (int i = 0; i < members; ++i) {
        text += (i ? ",\"m" : "\"m") + QByteArray::number(i) + "\":";
        switch (i % 5) {
        case 0: text += QByteArray::number(i); break;
        case 1: text += "\"v" + QByteArray::number(i) + "\""; break;
        case 2: text += "[1,{\"x\":null},true]"; break;
        case 3: text += "{\"y\":-1.5,\"z\":18446744073709551615}"; break;
        default: text += "false"; break;
        }
    }
    return text + "}";
}

} // namespace

class TestJsonSupport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildsWhatNlohmannBuilds_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("scalars") << QByteArray("[null,true,false,0,-7,18446744073709551615,2.5,\"s\\u00e9\"]");
        QTest::newRow("a name given twice") << QByteArray("{\"b\":1,\"a\":2,\"b\":{\"c\":[3]},\"a\":null}");
        QTest::newRow("nested, in the document's order") << QByteArray("{\"z\":{\"y\":[{\"x\":1,\"w\":2}],\"v\":{}},\"u\":[]}");
        QTest::newRow("an object of 3,000 members") << objectOf(3000);
        QTest::newRow("a bare string") << QByteArray("\"text\"");
    }
    void buildsWhatNlohmannBuilds()
    {
        QFETCH(QByteArray, text);
        const Outcome<Json> built = parseJson(text, QStringLiteral("t.json"));
        QVERIFY2(built, qPrintable(built ? QString() : built.error()));
        const Json expected = Json::parse(text.constData(), text.constData() + text.size());
        QCOMPARE(QString::fromStdString(built->dump()), QString::fromStdString(expected.dump()));
    }

    void aNameGivenTwiceKeepsItsFirstPlace()
    {
        const Outcome<Json> built = parseJson("{\"b\":1,\"a\":2,\"b\":3}", QStringLiteral("t.json"));
        QVERIFY(built);
        QCOMPARE(QString::fromStdString(built->dump()), QStringLiteral("{\"b\":3,\"a\":2}"));
    }

    void errorsNameTheirPlace_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("cut off") << QByteArray("{\"a\":[1,")
                                 << QStringLiteral("t.json:1:9: malformed JSON: parse error at line 1, column 9: syntax error while "
                                                   "parsing value - unexpected end of input; expected '[', '{', or a literal");
        QTest::newRow("a second line") << QByteArray("{\"a\":1,\n\"b\" 2}")
                                       << QStringLiteral("t.json:2:5: malformed JSON: parse error at line 2, column 5: syntax error "
                                                         "while parsing object separator - unexpected number literal; expected ':'");
        QTest::newRow("a number past a double") << QByteArray("{\"a\":1e400}")
                                                << QStringLiteral("t.json: malformed JSON: number overflow parsing '1e400'");
        QTest::newRow("empty") << QByteArray()
                               << QStringLiteral("t.json:1:1: malformed JSON: parse error at line 1, column 1: syntax error while "
                                                 "parsing value - unexpected end of input; expected '[', '{', or a literal");
    }
    void errorsNameTheirPlace()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const Outcome<Json> built = parseJson(text, QStringLiteral("t.json"));
        QVERIFY(!built);
        QCOMPARE(built.error(), error);
    }

    // JSON_DIAGNOSTICS: a value read wrongly is named by its path in the built document, also in
    // an object whose members moved while it grew.
    void aWrongValueIsNamedByItsPath()
    {
        QByteArray text = objectOf(1000);
        text.chop(1);
        text += ",\"runs\":{\"a\":[{\"keys\":1},{\"keys\":\"many\"}]}}";
        const Outcome<Json> built = parseJson(text, QStringLiteral("t.json"));
        QVERIFY(built);
        try {
            long long keys = 0;
            readValue(built.value()["runs"]["a"][1]["keys"], keys);
            QFAIL("a string was read as a count");
        } catch (const nlohmann::json::exception &error) {
            QCOMPARE(jsonErrorMessage(QStringLiteral("t.json"), error),
                     QStringLiteral("t.json: at /runs/a/1/keys: expected an integer, got string"));
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonSupport)
#include "tst_jsonsupport.moc"
