// Event -> command translation: exact pipelines for every aggregation, dedup of redeliveries,
// caps, and a byte-identical stream for the default workload on every pass.

#include "attributeconfig.h"
#include "eventtranslator.h"
#include "workloadfactory.h"

#include <QCryptographicHash>
#include <QtTest>

namespace {

AttributeConfig configWith(const QString &attribute)
{
    const QString json = QStringLiteral("{\"groups\":[{\"name\":\"g\"}],\"attributes\":[%1]}").arg(attribute);
    Outcome<AttributeConfig> config = parseAttributeConfig(json.toUtf8(), QStringLiteral("test.json"));
    if (!config)
        qFatal("%s", qPrintable(config.error()));
    return config.value();
}

ShopperEvent productView()
{
    ShopperEvent event;
    event.eventId = "e1";
    event.timestampMs = 1772410834567;   // bucket of 5 minutes starts at 1772410800 s
    event.shopperId = "s1";
    event.sessionId = "sess";
    event.type = ShopperEventType::ProductView;
    event.hasProduct = true;
    event.product.id = "P1";
    event.product.name = "Kestrel Aero Sneakers";
    event.product.category = "Woman/Shoes/Sneakers";
    event.product.brand = "Kestrel";
    event.product.priceCents = 8999;
    event.product.currency = "EUR";
    return event;
}

// "type|ARG ARG ..." per command.
QStringList render(const EventCommands &commands)
{
    QStringList lines;
    for (const WorkloadCommand &command : commands.commands) {
        QStringList args;
        for (const std::string &arg : command.args)
            args << QString::fromStdString(arg);
        lines << QString::fromStdString(command.type) + QLatin1Char('|') + args.join(QLatin1Char(' '));
    }
    return lines;
}

const QStringList dedup = {
    "dedup|SISMEMBER p:{s1}:processed e1",
    "dedup|SADD p:{s1}:processed e1",
    "dedup|EXPIRE p:{s1}:processed 2592000",
};

QString attribute(const QString &aggregation, const QString &extra, const QString &period = QStringLiteral("{\"type\":\"lifetime\",\"ttl\":\"30d\"}"))
{
    return QStringLiteral("{\"name\":\"a\",\"group\":\"g\",\"aggregation\":\"%1\",\"events\":[\"product_view\"],"
                          "\"period\":%2%3}").arg(aggregation, period, extra);
}

} // namespace

class TestEventTranslator : public QObject {
    Q_OBJECT

private slots:
    void everyAggregation_data()
    {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QStringList>("expected");   // after the dedup commands

        QTest::newRow("counter") << attribute("counter", "")
            << QStringList{"counter|INCRBY p:{s1}:a 1", "counter|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("sum") << attribute("sum", ",\"property\":\"product.price\"")
            << QStringList{"sum|INCRBY p:{s1}:a 8999", "sum|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("mean") << attribute("mean", ",\"property\":\"product.price\"")
            << QStringList{"mean|HINCRBY p:{s1}:a sum 8999", "mean|HINCRBY p:{s1}:a count 1", "mean|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("min") << attribute("min", ",\"property\":\"product.price\"")
            << QStringList{"min_max|ZADD p:{s1}:a LT 8999 min", "min_max|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("max") << attribute("max", ",\"property\":\"product.price\"")
            << QStringList{"min_max|ZADD p:{s1}:a GT 8999 max", "min_max|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("first") << attribute("first", ",\"property\":\"product.id\"")
            << QStringList{"first_last|SET p:{s1}:a P1 NX", "first_last|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("last timestamp") << attribute("last", ",\"property\":\"timestamp\"")
            << QStringList{"first_last|SET p:{s1}:a 1772410834567", "first_last|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("category_count depth 2") << attribute("category_count", ",\"property\":\"product.category\",\"category_depth\":2")
            << QStringList{"category_count|HINCRBY p:{s1}:a Woman/Shoes 1", "category_count|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("category_count full path") << attribute("category_count", ",\"property\":\"product.category\"")
            << QStringList{"category_count|HINCRBY p:{s1}:a Woman/Shoes/Sneakers 1", "category_count|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("approx_count_distinct") << attribute("approx_count_distinct", ",\"property\":\"session_id\"")
            << QStringList{"approx_distinct|PFADD p:{s1}:a sess", "approx_distinct|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("unique_list") << attribute("unique_list", ",\"property\":\"product.id\",\"cap\":20")
            << QStringList{"unique_list|LREM p:{s1}:a 0 P1", "unique_list|LPUSH p:{s1}:a P1", "unique_list|LTRIM p:{s1}:a 0 19",
                           "unique_list|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("most_frequent") << attribute("most_frequent", ",\"property\":\"product.brand\",\"cap\":10")
            << QStringList{"most_frequent|ZINCRBY p:{s1}:a 1 Kestrel", "most_frequent|ZREMRANGEBYRANK p:{s1}:a 0 -11",
                           "most_frequent|EXPIRE p:{s1}:a 2592000"};
        QTest::newRow("windowed counter") << attribute("counter", "", "{\"type\":\"window\",\"length\":\"1h\",\"bucket\":\"5m\",\"ttl\":\"2d\"}")
            << QStringList{"windowed|INCRBY p:{s1}:a:1772410800 1", "windowed|EXPIRE p:{s1}:a:1772410800 172800",
                           "windowed|ZADD p:{s1}:a:buckets 1772410800 1772410800",
                           "windowed|ZREMRANGEBYSCORE p:{s1}:a:buckets -inf 1772407200",
                           "windowed|EXPIRE p:{s1}:a:buckets 172800"};
        QTest::newRow("windowed sum") << attribute("sum", ",\"property\":\"product.price\"", "{\"type\":\"window\",\"length\":\"7d\",\"bucket\":\"1d\",\"ttl\":\"14d\"}")
            << QStringList{"windowed|INCRBY p:{s1}:a:1772409600 8999", "windowed|EXPIRE p:{s1}:a:1772409600 1209600",
                           "windowed|ZADD p:{s1}:a:buckets 1772409600 1772409600",
                           "windowed|ZREMRANGEBYSCORE p:{s1}:a:buckets -inf 1771804800",
                           "windowed|EXPIRE p:{s1}:a:buckets 1209600"};
        QTest::newRow("property absent: skipped") << attribute("last", ",\"property\":\"page.utm_source\"") << QStringList{};
        QTest::newRow("other event type: skipped")
            << QStringLiteral("{\"name\":\"a\",\"group\":\"g\",\"aggregation\":\"counter\",\"events\":[\"transaction\"],"
                              "\"period\":{\"type\":\"lifetime\",\"ttl\":\"30d\"}}")
            << QStringList{};
    }
    void everyAggregation()
    {
        QFETCH(QString, attribute);
        QFETCH(QStringList, expected);
        EventTranslator translator(configWith(attribute));
        EventCommands out;
        translator.translate(productView(), out);
        QCOMPARE(render(out), dedup + expected);
    }

    void redeliveryOnlyChecks()
    {
        EventTranslator translator(configWith(attribute("counter", "")));
        EventCommands out;
        translator.translate(productView(), out);
        QCOMPARE(out.commands.size(), size_t(5));
        translator.translate(productView(), out);   // same event id again: the application stops at SISMEMBER = 1
        QCOMPARE(render(out), QStringList{"dedup|SISMEMBER p:{s1}:processed e1"});
        ShopperEvent other = productView();
        other.shopperId = "s2";                      // the same id from another shopper is another event
        translator.translate(other, out);
        QCOMPARE(out.commands.size(), size_t(5));
        // A fresh translator (a new pass) has seen nothing.
        EventTranslator fresh(configWith(attribute("counter", "")));
        fresh.translate(productView(), out);
        QCOMPARE(out.commands.size(), size_t(5));
    }

    void categoryCountIsCapped()
    {
        EventTranslator translator(configWith(attribute("category_count", ",\"property\":\"product.category\",\"cap\":2")));
        EventCommands out;
        const char *const categories[] = {"A/x", "B/x", "A/x", "C/x"};
        QStringList fields;
        int id = 0;
        for (const char *category : categories) {
            ShopperEvent event = productView();
            event.eventId = "e" + std::to_string(++id);
            event.product.category = category;
            translator.translate(event, out);
            fields << (out.commands.size() > 3 ? QString::fromStdString(out.commands[3].args[2]) : QStringLiteral("-"));
        }
        QCOMPARE(fields, QStringList({"A/x", "B/x", "A/x", "-"}));   // a third category is past the cap
    }

    void reusesTheOutput()
    {
        EventTranslator translator(configWith(attribute("unique_list", ",\"property\":\"product.id\",\"cap\":20")));
        EventCommands out;
        out.commands.resize(50);
        out.commands[40].args = {"stale"};
        translator.translate(productView(), out);
        QCOMPARE(out.commands.size(), size_t(7));
        QCOMPARE(render(out).first(), QStringLiteral("dedup|SISMEMBER p:{s1}:processed e1"));
    }

    void appendRespEncodes()
    {
        WorkloadCommand command;
        command.args = {"SET", "k", std::string("v\0\r\n", 4), ""};
        std::string out = "x";
        appendResp(command, out);
        QCOMPARE(out, std::string("x*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\nv\0\r\n\r\n$0\r\n\r\n", 37));
    }

    // The default workload: known counts and the same bytes on every pass.
    void defaultWorkloadStream()
    {
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        const WorkloadInfo description = workload.value()->describe();
        QCOMPARE(description.name, QStringLiteral("ecommerce"));
        QCOMPARE(description.events, 20000LL);
        QCOMPARE(description.commands, 535380LL);
        QCOMPARE(description.sourceFile, QStringLiteral("ecommerce-events.jsonl"));
        QVERIFY(!workload.value()->describe().typesTimedAlone);

        QByteArray hashes[2];
        for (QByteArray &result : hashes) {
            Outcome<std::unique_ptr<CommandSource>> source = workload.value()->open();
            QVERIFY(source.ok());
            QCryptographicHash hash(QCryptographicHash::Sha256);
            EventCommands event;
            std::string buffer;
            long long commands = 0;
            std::map<std::string, long long> byType;
            while (true) {
                event.clear();   // as the replay engine does
                if (!source.value()->next(event))
                    break;
                buffer.clear();
                for (const WorkloadCommand &command : event.commands) {
                    appendResp(command, buffer);
                    ++byType[command.type];
                }
                commands += (long long)event.commands.size();
                hash.addData(QByteArrayView(buffer.data(), qsizetype(buffer.size())));
            }
            QVERIFY(source.value()->error().isEmpty());
            QCOMPARE(commands, 535380LL);
            for (const QString &type : description.types)
                QVERIFY2(byType[type.toStdString()] > 0, qPrintable(type));
            QCOMPARE(byType.size(), size_t(description.types.size()));
            result = hash.result().toHex();
        }
        QCOMPARE(hashes[0], hashes[1]);
        // Pinned: a change to the recording, the attributes or the translation changes this.
        QCOMPARE(hashes[0], QByteArray("78febdcfb4fd887eef022657e864909b8616adeb9adb4456d266d8c28cafce2b"));
    }

    // hash-tag=none: the same commands with the shopper's part of every key bare, so each key
    // is hashed whole; the recording still serves (same events, same command count), and the
    // bundle says so. Anything but shopper or none is refused by name.
    void hashTagNoneDropsTheBraces()
    {
        AttributeConfig config = configWith(attribute("counter", "", "{\"type\":\"window\",\"length\":\"1h\",\"bucket\":\"5m\",\"ttl\":\"2d\"}"));
        config.hashTagPerShopper = false;
        EventTranslator translator(config);
        EventCommands out;
        translator.translate(productView(), out);
        const QStringList lines = render(out);
        QCOMPARE(lines.mid(0, 3), (QStringList{"dedup|SISMEMBER p:s1:processed e1", "dedup|SADD p:s1:processed e1",
                                               "dedup|EXPIRE p:s1:processed 2592000"}));
        QCOMPARE(lines.at(3), QStringLiteral("windowed|INCRBY p:s1:a:1772410800 1"));
        QCOMPARE(lines.at(5), QStringLiteral("windowed|ZADD p:s1:a:buckets 1772410800 1772410800"));

        const Outcome<std::shared_ptr<Workload>> untagged =
            makeWorkload(QStringLiteral("ecommerce"), {{QStringLiteral("hash-tag"), QStringLiteral("none")}}, QString(), 0, false);
        QVERIFY2(untagged.ok(), qPrintable(untagged.error()));
        const WorkloadInfo description = untagged.value()->describe();
        QCOMPARE(description.sourceFile, QStringLiteral("ecommerce-events.jsonl"));
        QCOMPARE(description.commands, 535380LL);
        QCOMPARE(description.parameters.at(QStringLiteral("hash-tag")), QStringLiteral("none"));
        const Outcome<std::shared_ptr<Workload>> tagged =
            makeWorkload(QStringLiteral("ecommerce"), {{QStringLiteral("hash-tag"), QStringLiteral("shopper")}}, QString(), 0, false);
        QVERIFY(tagged.ok());
        QVERIFY(!tagged.value()->describe().parameters.count(QStringLiteral("hash-tag")));   // the default, as before
        const Outcome<std::shared_ptr<Workload>> bad =
            makeWorkload(QStringLiteral("ecommerce"), {{QStringLiteral("hash-tag"), QStringLiteral("user")}}, QString(), 0, false);
        QCOMPARE(bad.error(), QStringLiteral("ecommerce: parameter hash-tag: expected shopper or none, got 'user'"));
    }

    // The same stream, generated instead of read: --events 20000 reproduces the recording.
    void generatedEqualsRecording()
    {
        Outcome<std::shared_ptr<Workload>> recorded = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), 0, false);
        Outcome<std::shared_ptr<Workload>> generated =
            makeWorkload(QStringLiteral("ecommerce"), {{QStringLiteral("seed"), QStringLiteral("1")}}, QString(), 20000, false);
        QVERIFY(recorded.ok() && generated.ok());
        QCOMPARE(generated.value()->describe().sourceFile, QString());
        QCOMPARE(generated.value()->describe().commands, recorded.value()->describe().commands);
    }
};

QTEST_GUILESS_MAIN(TestEventTranslator)
#include "tst_eventtranslator.moc"
