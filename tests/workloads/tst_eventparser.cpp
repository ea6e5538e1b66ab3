// Parsing recorded events (JSON Lines): every field, and malformed lines named by line number.

#include "attributeconfig.h"
#include "ecommerceworkload.h"
#include "shopperevent.h"

#include <QtTest>

namespace {

const char *const goodLine =
    "{\"event_id\":\"e-1\",\"timestamp\":1772409600123,\"shopper_id\":\"0f8fad5b-d9cb-469f-a165-70867728950e\","
    "\"session_id\":\"s-9\",\"type\":\"transaction\",\"product\":{\"id\":\"P1\",\"name\":\"Caf\\u00e9 \\\"Noir\\\" Mug\",\"category\":\"Home/Kitchen/Coffee Makers\","
    "\"brand\":\"Oakhaven\",\"price\":1999,\"currency\":\"EUR\"},\"cart_total\":3998,\"checkout_step\":3,"
    "\"transaction\":{\"id\":\"T1\",\"revenue\":3998,\"item_count\":2},\"page\":{\"url\":\"https://shop.example/x\",\"referrer\":\"r\","
    "\"utm_source\":\"newsletter\",\"utm_medium\":\"email\",\"utm_campaign\":\"spring\"},\"extra\":[1,{\"a\":null},true,-2.5e3]}";

AttributeConfig minimalConfig()
{
    Outcome<AttributeConfig> config = parseAttributeConfig(
        "{\"groups\":[{\"name\":\"g\"}],\"attributes\":[{\"name\":\"views\",\"group\":\"g\",\"aggregation\":\"counter\","
        "\"events\":[\"page_view\"],\"period\":{\"type\":\"lifetime\",\"ttl\":\"30d\"}}]}",
        QStringLiteral("attributes.json"));
    return config.value();
}

} // namespace

class TestEventParser : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryField()
    {
        ShopperEvent event;
        std::string error;
        QVERIFY2(parseEventJsonLine(goodLine, event, error), error.c_str());
        QCOMPARE(event.eventId, std::string("e-1"));
        QCOMPARE(event.timestampMs, 1772409600123LL);
        QCOMPARE(event.shopperId, std::string("0f8fad5b-d9cb-469f-a165-70867728950e"));
        QCOMPARE(event.sessionId, std::string("s-9"));
        QCOMPARE(int(event.type), int(ShopperEventType::Transaction));
        QVERIFY(event.hasProduct);
        QCOMPARE(event.product.name, std::string("Caf\xc3\xa9 \"Noir\" Mug"));
        QCOMPARE(event.product.category, std::string("Home/Kitchen/Coffee Makers"));
        QCOMPARE(event.product.brand, std::string("Oakhaven"));
        QCOMPARE(event.product.priceCents, 1999LL);
        QCOMPARE(event.product.currency, std::string("EUR"));
        QVERIFY(event.hasCartTotal);
        QCOMPARE(event.cartTotalCents, 3998LL);
        QVERIFY(event.hasCheckoutStep);
        QCOMPARE(event.checkoutStep, 3LL);
        QVERIFY(event.hasTransaction);
        QCOMPARE(event.transaction.id, std::string("T1"));
        QCOMPARE(event.transaction.revenueCents, 3998LL);
        QCOMPARE(event.transaction.itemCount, 2LL);
        QVERIFY(event.hasPage);
        QCOMPARE(event.page.url, std::string("https://shop.example/x"));
        QCOMPARE(event.page.referrer, std::string("r"));
        QCOMPARE(event.page.utmSource, std::string("newsletter"));
        QCOMPARE(event.page.utmMedium, std::string("email"));
        QCOMPARE(event.page.utmCampaign, std::string("spring"));
    }

    void writesWhatItReads()
    {
        ShopperEvent event;
        std::string error;
        QVERIFY(parseEventJsonLine(goodLine, event, error));
        std::string line;
        appendEventJsonLine(event, line);
        QCOMPARE(line.back(), '\n');
        ShopperEvent again;
        QVERIFY2(parseEventJsonLine(line, again, error), error.c_str());
        std::string second;
        appendEventJsonLine(again, second);
        QCOMPARE(second, line);
    }

    void optionalEntitiesAreReset()
    {
        ShopperEvent event;
        std::string error;
        QVERIFY(parseEventJsonLine(goodLine, event, error));
        QVERIFY(parseEventJsonLine("{\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":\"s\",\"session_id\":\"x\",\"type\":\"list_view\"}", event, error));
        QVERIFY(!event.hasProduct && !event.hasTransaction && !event.hasPage && !event.hasCartTotal && !event.hasCheckoutStep);
        QCOMPARE(int(event.type), int(ShopperEventType::ListView));
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("message");
        const QString base = QStringLiteral("\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":\"s\",\"session_id\":\"x\"");
        QTest::newRow("missing shopper") << QStringLiteral("{\"event_id\":\"e\",\"timestamp\":1,\"session_id\":\"x\",\"type\":\"page_view\"}")
                                         << "missing field shopper_id";
        QTest::newRow("missing type") << "{" + base + "}" << "missing field type";
        QTest::newRow("unknown type") << "{" + base + ",\"type\":\"click\"}" << "unknown event type 'click'";
        QTest::newRow("float price") << "{" + base + ",\"type\":\"product_view\",\"product\":{\"id\":\"p\",\"category\":\"A/B\",\"price\":19.99}}"
                                     << "field product.price must be an integer (money in cents, time in ms)";
        QTest::newRow("string timestamp") << QStringLiteral("{\"event_id\":\"e\",\"timestamp\":\"2026-03-02T00:00:00Z\",\"shopper_id\":\"s\",\"session_id\":\"x\",\"type\":\"page_view\"}")
                                          << "field timestamp must be an integer";
        QTest::newRow("product without id") << "{" + base + ",\"type\":\"product_view\",\"product\":{\"category\":\"A/B\",\"price\":1}}"
                                            << "missing field product.id";
        QTest::newRow("transaction without revenue") << "{" + base + ",\"type\":\"transaction\",\"transaction\":{\"id\":\"t\",\"item_count\":1}}"
                                                     << "missing field transaction.revenue";
        QTest::newRow("page without url") << "{" + base + ",\"type\":\"page_view\",\"page\":{}}" << "missing field page.url";
        QTest::newRow("numeric shopper") << QStringLiteral("{\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":5,\"session_id\":\"x\",\"type\":\"page_view\"}")
                                         << "field shopper_id must be a string";
        QTest::newRow("truncated") << QStringLiteral("{\"event_id\":\"e\",\"timestamp\":1,\"shop") << "invalid JSON at column 36: syntax error while parsing object key - invalid string: missing closing quote; last read: '\"shop'; expected string literal";
        QTest::newRow("not an object") << QStringLiteral("[1,2]") << "an event must be a JSON object";
        QTest::newRow("trailing text") << "{" + base + ",\"type\":\"page_view\"} x" << "invalid JSON at column 85: syntax error while parsing value - invalid literal; last read: '\"page_view\"} x'; expected end of input";
        QTest::newRow("bad escape") << QStringLiteral("{\"event_id\":\"e\\q\"}") << "invalid JSON at column 16: syntax error while parsing value - invalid string: forbidden character after backslash; last read: '\"e\\q'";
        QTest::newRow("huge number") << "{" + base + ",\"type\":\"page_view\",\"cart_total\":1e400}"
                                     << "invalid JSON at column 101: number overflow parsing '1e400'";
        QTest::newRow("float shopper") << QStringLiteral("{\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":1.5,\"session_id\":\"x\",\"type\":\"page_view\"}")
                                       << "field shopper_id must be a string";
        QTest::newRow("empty id") << QStringLiteral("{\"event_id\":\"\",\"timestamp\":1,\"shopper_id\":\"s\",\"session_id\":\"x\",\"type\":\"page_view\"}")
                                  << "field event_id is empty";
    }
    void rejectsMalformed()
    {
        QFETCH(QString, line);
        QFETCH(QString, message);
        ShopperEvent event;
        std::string error;
        const std::string text = line.toStdString();
        QVERIFY(!parseEventJsonLine(text, event, error));
        QCOMPARE(QString::fromStdString(error), message);
    }

    void goodFileStreams()
    {
        auto workload = EcommerceWorkload::fromRecording(QStringLiteral(VERSUS_FIXTURES "/workloads/events-good.jsonl"),
                                                         QStringLiteral("events-good.jsonl"), minimalConfig(),
                                                         QStringLiteral("test"));
        QVERIFY2(workload->countPass().ok(), qPrintable(workload->countPass().error()));
        const WorkloadInfo description = workload->describe();
        QCOMPARE(description.events, 4LL);            // the blank line is not an event
        QCOMPARE(description.commands, 4LL * 3 + 2);  // dedup on each, one counter update
        QCOMPARE(description.sourceFile, QStringLiteral("events-good.jsonl"));
        QCOMPARE(description.sourceSha256.size(), 64);
    }

    void badFileNamesTheLine()
    {
        auto workload = EcommerceWorkload::fromRecording(QStringLiteral(VERSUS_FIXTURES "/workloads/events-missing-shopper.jsonl"),
                                                         QStringLiteral("events.jsonl"), minimalConfig(), QStringLiteral("test"));
        const Status counted = workload->countPass();
        QVERIFY(!counted.ok());
        QCOMPARE(counted.error(), QStringLiteral("events.jsonl:3: missing field shopper_id"));

        Outcome<std::unique_ptr<CommandSource>> source = workload->open();
        QVERIFY(source.ok());
        EventCommands event;
        int events = 0;
        while (source.value()->next(event))
            ++events;
        QCOMPARE(events, 2);
        QCOMPARE(source.value()->error(), QStringLiteral("events.jsonl:3: missing field shopper_id"));
    }

    void missingFileIsAnError()
    {
        auto workload = EcommerceWorkload::fromRecording(QStringLiteral("/nonexistent/events.jsonl"),
                                                         QStringLiteral("events.jsonl"), minimalConfig(), QStringLiteral("test"));
        Outcome<std::unique_ptr<CommandSource>> source = workload->open();
        QVERIFY(!source.ok());
        QVERIFY2(source.error().startsWith(QStringLiteral("/nonexistent/events.jsonl: cannot read")), qPrintable(source.error()));
    }
};

QTEST_GUILESS_MAIN(TestEventParser)
#include "tst_eventparser.moc"
