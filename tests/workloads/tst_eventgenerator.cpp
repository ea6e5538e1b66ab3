// The event generator: same options give the same bytes, journeys look like a shop's, and the
// shoppers said to appear are those whose events were written.

#include "eventgenerator.h"
#include "shopperevent.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

namespace {

QByteArray sha256OfEvents(const GeneratorOptions &options)
{
    EventGenerator generator(options);
    ShopperEvent event;
    std::string line;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (generator.next(event)) {
        line.clear();
        appendEventJsonLine(event, line);
        hash.addData(QByteArrayView(line.data(), qsizetype(line.size())));
    }
    return hash.result().toHex();
}

QByteArray sha256OfFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

QString sourceDir()
{
    return qEnvironmentVariable("VERSUS_SOURCE_DIR", QStringLiteral(VERSUS_FIXTURES "/../.."));
}

} // namespace

class TestEventGenerator : public QObject {
    Q_OBJECT

private slots:
    void sameSeedSameBytes_data()
    {
        QTest::addColumn<long long>("events");
        QTest::addColumn<long long>("shoppers");
        QTest::addColumn<qulonglong>("seed");
        QTest::newRow("tiny") << 10LL << 3LL << qulonglong(1);
        QTest::newRow("default size") << 20000LL << 1500LL << qulonglong(1);
        QTest::newRow("other seed") << 5000LL << 400LL << qulonglong(987654321);
    }
    void sameSeedSameBytes()
    {
        QFETCH(long long, events);
        QFETCH(long long, shoppers);
        QFETCH(qulonglong, seed);
        GeneratorOptions options;
        options.events = events;
        options.shoppers = shoppers;
        options.seed = seed;
        QCOMPARE(sha256OfEvents(options), sha256OfEvents(options));
        GeneratorOptions other = options;
        other.seed = seed + 1;
        QVERIFY(sha256OfEvents(options) != sha256OfEvents(other));
    }

    // Pins the generator's output: a change here changes every generated recording.
    void outputIsPinned()
    {
        GeneratorOptions options;
        options.events = 1000;
        options.shoppers = 80;
        options.seed = 7;
        QCOMPARE(sha256OfEvents(options), QByteArray("77421a8c60250566b6df5c175306dece812ccbe5d1791f3d31c3e998fc05c31b"));
    }

    // The shipped recording is exactly `versus generate --events 20000 --shoppers 1500 --seed 1`.
    void builtInRecordingIsGenerated()
    {
        GeneratorOptions options;
        options.events = 20000;
        options.shoppers = 1500;
        options.seed = 1;
        QCOMPARE(sha256OfFile(sourceDir() + QStringLiteral("/resources/ecommerce-events.jsonl")), sha256OfEvents(options));
    }

    void producesExactlyTheRequestedCount()
    {
        GeneratorOptions options;
        options.events = 1234;
        options.shoppers = 50;
        EventGenerator generator(options);
        ShopperEvent event;
        long long count = 0;
        while (generator.next(event))
            ++count;
        QCOMPARE(count, 1234LL);
        QCOMPARE(generator.produced(), 1234LL);
        QVERIFY(!generator.next(event));
    }

    // Shoppers appear as their first session starts: with few events per shopper not all of
    // them do. The generator counts those whose events it produced.
    void countsTheShoppersThatAppear_data()
    {
        QTest::addColumn<long long>("events");
        QTest::addColumn<long long>("shoppers");
        QTest::newRow("10 events, 20 shoppers") << 10LL << 20LL;
        QTest::newRow("300 events, 20 shoppers") << 300LL << 20LL;
        QTest::newRow("1234 events, 500 shoppers") << 1234LL << 500LL;
        QTest::newRow("1 event, 1 shopper") << 1LL << 1LL;
    }
    void countsTheShoppersThatAppear()
    {
        QFETCH(long long, events);
        QFETCH(long long, shoppers);
        GeneratorOptions options;
        options.events = events;
        options.shoppers = shoppers;
        EventGenerator generator(options);
        ShopperEvent event;
        std::set<std::string> appeared;
        while (generator.next(event))
            appeared.insert(event.shopperId);
        QCOMPARE(generator.shoppersAppeared(), (long long)appeared.size());
    }

    void journeysAreRealistic()
    {
        GeneratorOptions options;   // 20,000 events, 1,500 shoppers
        EventGenerator generator(options);
        ShopperEvent event;
        std::set<std::string> eventIds;
        std::set<std::string> shoppers;
        std::map<std::string, unsigned> sessionTypes;   // session -> bit per type
        std::map<std::string, long long> categoryViews;
        long long duplicates = 0;
        long long events = 0;
        long long previousTimestamp = 0;
        long long outOfOrderOriginals = 0;
        while (generator.next(event)) {
            ++events;
            const bool duplicate = !eventIds.insert(event.eventId).second;
            duplicates += duplicate;
            if (!duplicate) {
                outOfOrderOriginals += event.timestampMs < previousTimestamp;
                previousTimestamp = event.timestampMs;
            }
            shoppers.insert(event.shopperId);
            sessionTypes[event.sessionId] |= 1u << int(event.type);
            if (event.type == ShopperEventType::ProductView)
                ++categoryViews[event.product.category];
            if (event.type == ShopperEventType::Transaction) {
                QVERIFY(event.hasTransaction);
                QCOMPARE(event.transaction.revenueCents, event.cartTotalCents);
                QVERIFY(event.transaction.itemCount >= 1);
            }
            if (event.hasProduct) {
                QVERIFY(event.product.priceCents > 0);
                QCOMPARE(std::count(event.product.category.begin(), event.product.category.end(), '/'), 2);
            }
            QCOMPARE(event.shopperId.size(), size_t(36));
        }
        QCOMPARE(events, 20000LL);
        QCOMPARE(outOfOrderOriginals, 0LL);   // originals come in time order; redeliveries are late
        const double duplicateRate = double(duplicates) / double(events);
        QVERIFY2(duplicateRate > 0.005 && duplicateRate < 0.015, qPrintable(QString::number(duplicateRate)));
        QVERIFY2(shoppers.size() > 1400 && shoppers.size() <= 1500, qPrintable(QString::number(shoppers.size())));

        long long carted = 0;
        long long purchased = 0;
        for (const auto &entry : sessionTypes) {
            carted += (entry.second >> int(ShopperEventType::AddToCart)) & 1;
            purchased += (entry.second >> int(ShopperEventType::Transaction)) & 1;
        }
        const double sessions = double(sessionTypes.size());
        QVERIFY2(carted / sessions > 0.08 && carted / sessions < 0.13, qPrintable(QString::number(carted / sessions)));
        QVERIFY2(purchased / sessions > 0.015 && purchased / sessions < 0.04, qPrintable(QString::number(purchased / sessions)));
        // Zipf: the most viewed category gets far more than an even share of ~53 categories.
        long long top = 0;
        long long total = 0;
        for (const auto &entry : categoryViews) {
            top = std::max(top, entry.second);
            total += entry.second;
        }
        QVERIFY(double(top) / double(total) > 0.08);
    }

    void commandLine()
    {
        const QString binary = qEnvironmentVariable("VERSUS_BINARY");
        if (binary.isEmpty() || !QFile::exists(binary))
            QSKIP("VERSUS_BINARY is not set or not built");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString first = dir.filePath(QStringLiteral("a.jsonl"));
        const QString second = dir.filePath(QStringLiteral("b.jsonl"));
        for (const QString &out : {first, second}) {
            QProcess process;
            process.start(binary, {QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("300"),
                                   QStringLiteral("--shoppers"), QStringLiteral("20"), QStringLiteral("--seed"),
                                   QStringLiteral("5"), QStringLiteral("--out"), out});
            QVERIFY(process.waitForFinished(60000));
            QCOMPARE(process.exitCode(), 0);
        }
        QCOMPARE(sha256OfFile(first), sha256OfFile(second));
        GeneratorOptions options;
        options.events = 300;
        options.shoppers = 20;
        options.seed = 5;
        QCOMPARE(sha256OfFile(first), sha256OfEvents(options));

        // 10 events from 20 shoppers: fewer appear, and the message says how many did.
        const QString few = dir.filePath(QStringLiteral("few.jsonl"));
        QProcess fewer;
        fewer.start(binary, {QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("10"), QStringLiteral("--shoppers"),
                             QStringLiteral("20"), QStringLiteral("--out"), few});
        QVERIFY(fewer.waitForFinished(60000));
        QCOMPARE(fewer.exitCode(), 0);
        QFile written(few);
        QVERIFY(written.open(QIODevice::ReadOnly));
        std::set<QString> appeared;
        for (const QByteArray &line : written.readAll().split('\n')) {
            if (!line.isEmpty())
                appeared.insert(QJsonDocument::fromJson(line).object().value(QStringLiteral("shopper_id")).toString());
        }
        QVERIFY2(appeared.size() < 20, qPrintable(QString::number(appeared.size())));
        QCOMPARE(QString::fromUtf8(fewer.readAllStandardError()),
                 QStringLiteral("versus generate: wrote 10 events from %1 shoppers (of 20; seed 1) to %2\n").arg(appeared.size()).arg(few));

        QProcess help;
        help.start(binary, {QStringLiteral("generate"), QStringLiteral("--help")});
        QVERIFY(help.waitForFinished(60000));
        QCOMPARE(help.exitCode(), 0);
        QVERIFY(help.readAllStandardOutput().contains("--events"));

        QProcess bad;
        bad.start(binary, {QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("ten"),
                           QStringLiteral("--out"), dir.filePath(QStringLiteral("c.jsonl"))});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--events must be a positive integer"));
    }
};

QTEST_GUILESS_MAIN(TestEventGenerator)
#include "tst_eventgenerator.moc"
