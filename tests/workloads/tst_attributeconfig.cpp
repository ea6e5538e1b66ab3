// Attribute configuration: the built-in one is valid and complete; mistakes are reported with
// the JSON path at fault.

#include "attributeconfig.h"
#include "workloadfactory.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

namespace {

using Json = nlohmann::ordered_json;

Json validConfig()
{
    return Json::parse(
        "{\"version\":1,\"groups\":[{\"name\":\"g\"}],\"attributes\":["
        "{\"name\":\"views\",\"group\":\"g\",\"aggregation\":\"counter\",\"events\":[\"page_view\"],"
        "\"period\":{\"type\":\"lifetime\",\"ttl\":\"30d\"}},"
        "{\"name\":\"spent\",\"group\":\"g\",\"aggregation\":\"sum\",\"property\":\"transaction.revenue\","
        "\"events\":[\"transaction\"],\"period\":{\"type\":\"lifetime\",\"ttl\":3600}},"
        "{\"name\":\"views_1h\",\"group\":\"g\",\"aggregation\":\"counter\",\"events\":[\"product_view\"],"
        "\"period\":{\"type\":\"window\",\"length\":\"1h\",\"bucket\":\"5m\",\"ttl\":\"2d\"}},"
        "{\"name\":\"cats\",\"group\":\"g\",\"aggregation\":\"category_count\",\"property\":\"product.category\","
        "\"category_depth\":2,\"cap\":50,\"events\":[\"product_view\"],\"period\":{\"type\":\"lifetime\",\"ttl\":\"30d\"}}"
        "]}");
}

QString errorOf(const Json &config)
{
    const std::string text = config.dump();
    Outcome<AttributeConfig> parsed = parseAttributeConfig(QByteArray::fromStdString(text), QStringLiteral("attributes.json"));
    return parsed.ok() ? QStringLiteral("(valid)") : parsed.error();
}

} // namespace

class TestAttributeConfig : public QObject {
    Q_OBJECT

private slots:
    void builtInConfigCoversEveryAggregation()
    {
        const QString path = qEnvironmentVariable("VERSUS_SOURCE_DIR", QStringLiteral(VERSUS_FIXTURES "/../.."))
            + QStringLiteral("/resources/attributes.json");
        Outcome<AttributeConfig> config = loadAttributeConfig(path);
        QVERIFY2(config.ok(), qPrintable(config.error()));
        QCOMPARE(int(config->attributes.size()), 24);
        QCOMPARE(int(config->groups.size()), 4);
        std::set<int> aggregations;
        bool windowed = false;
        for (const AttributeSpec &spec : config->attributes) {
            aggregations.insert(int(spec.aggregation));
            windowed = windowed || spec.windowed;
        }
        QCOMPARE(int(aggregations.size()), 11);
        QVERIFY(windowed);
        QCOMPARE(config->types(), QStringList({"counter", "sum", "mean", "category_count", "approx_distinct", "unique_list",
                                               "windowed", "most_frequent", "min_max", "first_last", "dedup"}));
        QCOMPARE(config->dedupTtlSeconds, 30LL * 86400);
    }

    void parsesFields()
    {
        Outcome<AttributeConfig> config = parseAttributeConfig(QByteArray::fromStdString(validConfig().dump()), QStringLiteral("a.json"));
        QVERIFY2(config.ok(), qPrintable(config.error()));
        const AttributeSpec &spent = config->attributes[1];
        QCOMPARE(int(spent.aggregation), int(Aggregation::Sum));
        QCOMPARE(int(spent.property), int(EventProperty::TransactionRevenue));
        QCOMPARE(spent.ttlSeconds, 3600LL);
        QVERIFY(spent.reads(ShopperEventType::Transaction));
        QVERIFY(!spent.reads(ShopperEventType::PageView));
        QCOMPARE(spent.type, std::string("sum"));
        const AttributeSpec &window = config->attributes[2];
        QVERIFY(window.windowed);
        QCOMPARE(window.windowSeconds, 3600LL);
        QCOMPARE(window.bucketSeconds, 300LL);
        QCOMPARE(window.ttlSeconds, 172800LL);
        QCOMPARE(window.type, std::string("windowed"));
        const AttributeSpec &cats = config->attributes[3];
        QCOMPARE(cats.cap, 50);
        QCOMPARE(cats.categoryDepth, 2);
        QCOMPARE(cats.type, std::string("category_count"));
        QCOMPARE(config->types(), QStringList({"counter", "sum", "category_count", "windowed", "dedup"}));
    }

    void reportsJsonPath_data()
    {
        QTest::addColumn<QString>("pointer");   // JSON pointer to change; "~" prefix removes it
        QTest::addColumn<QString>("value");     // JSON text of the new value
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown aggregation") << "/attributes/1/aggregation" << "\"avg\""
            << "attributes.json: attributes[1].aggregation: unknown aggregation 'avg' (expected one of counter, sum, mean, "
               "min, max, first, last, category_count, approx_count_distinct, unique_list, most_frequent)";
        QTest::newRow("missing name") << "~/attributes/0/name" << ""
            << "attributes.json: attributes[0].name: missing field";
        QTest::newRow("missing property") << "~/attributes/1/property" << ""
            << "attributes.json: attributes[1].property: missing field (aggregation 'sum' reads a property)";
        QTest::newRow("missing period") << "~/attributes/0/period" << ""
            << "attributes.json: attributes[0].period: missing field";
        QTest::newRow("missing attributes") << "~/attributes" << ""
            << "attributes.json: attributes: missing field";
        QTest::newRow("name not a string") << "/attributes/0/name" << "42"
            << "attributes.json: attributes[0].name: must be a string, not number";
        QTest::newRow("cap not an integer") << "/attributes/3/cap" << "\"many\""
            << "attributes.json: attributes[3].cap: must be an integer, not string";
        QTest::newRow("cap out of range") << "/attributes/3/cap" << "0"
            << "attributes.json: attributes[3].cap: must be between 1 and 100000";
        QTest::newRow("events not an array") << "/attributes/0/events" << "\"page_view\""
            << "attributes.json: attributes[0].events: must be a non-empty array of event types";
        QTest::newRow("unknown event type") << "/attributes/0/events/0" << "\"click\""
            << "attributes.json: attributes[0].events[0]: unknown event type 'click' (expected page_view, product_view, "
               "list_view, add_to_cart, remove_from_cart, checkout_step or transaction)";
        QTest::newRow("unknown property") << "/attributes/1/property" << "\"product.colour\""
            << "attributes.json: attributes[1].property: unknown property 'product.colour' (expected one of event_id, "
               "session_id, timestamp, type, product.id, product.name, product.category, product.brand, product.price, "
               "product.currency, cart_total, checkout_step, transaction.id, transaction.revenue, transaction.item_count, "
               "page.url, page.referrer, page.utm_source, page.utm_medium, page.utm_campaign)";
        QTest::newRow("sum of text") << "/attributes/1/property" << "\"product.name\""
            << "attributes.json: attributes[1].property: aggregation 'sum' needs a numeric property, 'product.name' is text";
        QTest::newRow("bad duration") << "/attributes/0/period/ttl" << "\"3 weeks\""
            << "attributes.json: attributes[0].period.ttl: invalid duration '3 weeks' (expected e.g. 90s, 5m, 1h, 30d)";
        QTest::newRow("unknown period") << "/attributes/0/period/type" << "\"forever\""
            << "attributes.json: attributes[0].period.type: unknown period 'forever' (expected lifetime or window)";
        QTest::newRow("bucket does not divide") << "/attributes/2/period/bucket" << "\"7m\""
            << "attributes.json: attributes[2].period.bucket: must divide the window length evenly";
        QTest::newRow("window ttl too short") << "/attributes/2/period/ttl" << "\"1h\""
            << "attributes.json: attributes[2].period.ttl: must cover the window and one bucket (at least 3900 seconds)";
        QTest::newRow("unknown group") << "/attributes/0/group" << "\"misc\""
            << "attributes.json: attributes[0].group: unknown group 'misc'";
        QTest::newRow("duplicate name") << "/attributes/1/name" << "\"views\""
            << "attributes.json: attributes[1].name: duplicate attribute 'views'";
        QTest::newRow("bad name") << "/attributes/1/name" << "\"Spent Total\""
            << "attributes.json: attributes[1].name: 'Spent Total' may use only a-z, 0-9 and _";
        QTest::newRow("typo in field") << "/attributes/0/agregation" << "\"counter\""
            << "attributes.json: attributes[0].agregation: unknown field (expected name, group, aggregation, property, "
               "events, period, cap, category_depth, description)";
        QTest::newRow("depth on counter") << "/attributes/0/category_depth" << "1"
            << "attributes.json: attributes[0].category_depth: applies to aggregation 'category_count' only";
        QTest::newRow("unsupported version") << "/version" << "2"
            << "attributes.json: version: unsupported version (expected 1)";
        QTest::newRow("groups empty") << "/groups" << "[]"
            << "attributes.json: groups: must be a non-empty array";
        QTest::newRow("command groups empty") << "/command_groups" << "[]"
            << "attributes.json: command_groups: must be a non-empty array";
        QTest::newRow("command the translator does not send") << "/command_groups"
            << "[{\"name\":\"reads\",\"commands\":[\"get\"]}]"
            << "attributes.json: command_groups[0].commands[0]: 'GET' is not a command the translator sends (expected one "
               "of INCRBY, HINCRBY, ZADD, SET, PFADD, LREM, LPUSH, LTRIM, ZINCRBY, ZREMRANGEBYRANK, ZREMRANGEBYSCORE, SADD, "
               "EXPIRE, SISMEMBER)";
        QTest::newRow("command in two groups") << "/command_groups"
            << "[{\"name\":\"a\",\"commands\":[\"SET\"]},{\"name\":\"b\",\"commands\":[\"set\"]}]"
            << "attributes.json: command_groups[1].commands[0]: SET is already in group 'a'";
        QTest::newRow("command group twice") << "/command_groups"
            << "[{\"name\":\"a\",\"commands\":[\"SET\"]},{\"name\":\"a\",\"commands\":[\"ZADD\"]}]"
            << "attributes.json: command_groups[1].name: duplicate group 'a'";
        QTest::newRow("command group without commands") << "/command_groups" << "[{\"name\":\"a\"}]"
            << "attributes.json: command_groups[0].commands: missing field";
    }
    void reportsJsonPath()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, message);
        Json config = validConfig();
        if (pointer.startsWith(QLatin1Char('~'))) {
            const Json::json_pointer target(pointer.mid(1).toStdString());
            config[target.parent_pointer()].erase(target.back());
        } else {
            config[Json::json_pointer(pointer.toStdString())] = Json::parse(value.toStdString());
        }
        QCOMPARE(errorOf(config), message);
    }

    // A configuration names its own command groups; the workload reports them, in order.
    void commandGroupsAreTheConfigurations()
    {
        Json config = validConfig();
        config["command_groups"] = Json::parse("[{\"name\":\"counters\",\"commands\":[\"incrby\",\"HINCRBY\"]},"
                                               "{\"name\":\"TTL\",\"commands\":[\"EXPIRE\"]}]");
        const std::vector<std::pair<QString, QStringList>> expected{
            {QStringLiteral("counters"), {QStringLiteral("INCRBY"), QStringLiteral("HINCRBY")}},
            {QStringLiteral("TTL"), {QStringLiteral("EXPIRE")}}};
        const Outcome<AttributeConfig> parsed =
            parseAttributeConfig(QByteArray::fromStdString(config.dump()), QStringLiteral("attributes.json"));
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error()));
        QVERIFY(parsed->commandGroups == expected);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("attributes.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(config.dump()));
        file.close();
        const Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("ecommerce"), {}, path, 200, false);
        QVERIFY2(workload, qPrintable(workload ? QString() : workload.error()));
        QVERIFY(workload.value()->describe().commandGroups == expected);
        // Without its own, the built-in configuration's three.
        const Outcome<std::shared_ptr<Workload>> builtIn = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), 200, false);
        QVERIFY(builtIn);
        QCOMPARE(int(builtIn.value()->describe().commandGroups.size()), 3);
        QCOMPARE(builtIn.value()->describe().commandGroups.front().second.size(), 12);
    }

    void reportsInvalidJson()
    {
        Outcome<AttributeConfig> parsed = parseAttributeConfig("{\"groups\": [", QStringLiteral("attributes.json"));
        QVERIFY(!parsed.ok());
        // The file, its line and column, then what was wrong.
        QVERIFY2(parsed.error().startsWith(QStringLiteral("attributes.json:1:13: malformed JSON: ")), qPrintable(parsed.error()));
        Outcome<AttributeConfig> root = parseAttributeConfig("[1]", QStringLiteral("attributes.json"));
        QCOMPARE(root.error(), QStringLiteral("attributes.json: (root): must be an object, not array"));
        Outcome<AttributeConfig> missing = loadAttributeConfig(QStringLiteral("/nonexistent/attrs.json"));
        QVERIFY2(missing.error().startsWith(QStringLiteral("/nonexistent/attrs.json: cannot read")), qPrintable(missing.error()));
    }
};

QTEST_GUILESS_MAIN(TestAttributeConfig)
#include "tst_attributeconfig.moc"
