// What a server's MEMORY STATS and MALLOC-STATS replies are read as when they are not what a
// real server sends: a reply of another shape is an error naming the command, names outside
// the allow-list are dropped whatever they hold, and nothing a reply says can make Versus keep
// more than the known fields and size classes.

#include "memoryreport.h"
#include "replyvalues.h"

#include <QTest>

namespace MemoryReplies {

using ReplyValues::list;
using ReplyValues::number;
using ReplyValues::text;

// A nested array `depth` levels deep.
Reply nested(int depth)
{
    Reply reply = number(1);
    for (int level = 0; level < depth; ++level)
        reply = list({reply});
    return reply;
}

} // namespace MemoryReplies

using namespace MemoryReplies;

Q_DECLARE_METATYPE(Reply)

class TestMemoryReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onlyKnownFieldsAreKept()
    {
        const Reply reply = list({text("total.allocated"), number(1000), text("dataset.bytes"), number(400),
                                  text("<b>evil</b>\x1b[31m"), number(5), text("keys.count"), nested(500),
                                  text("db.0"), list({text("overhead.hashtable.main"), number(64), text("x"), nested(50)}),
                                  text("db.1"), list({text("overhead.hashtable.main"), number(36)})});
        const Outcome<std::map<QString, long long>> fields = memoryStatsFields(reply);
        QVERIFY2(fields, qPrintable(fields ? QString() : fields.error()));
        const std::map<QString, long long> expected{{QStringLiteral("total.allocated"), 1000},
                                                   {QStringLiteral("dataset.bytes"), 400},
                                                   {QStringLiteral("db.overhead.hashtable.main"), 100}};
        QCOMPARE(fields.value(), expected);
    }

    // A rewriting proxy answered every integer as 2^63 − 1: kept, a pass's change and the sum of
    // two databases overflowed, and the Why read ±4.6·10^16 bytes per key. No server can report
    // more than a process can address: the reply is refused, naming the field.
    void countsNoServerCanReportAreRefused_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::addColumn<QString>("message");
        const long long most = 9223372036854775807LL;
        QTest::newRow("total at 2^63 - 1")
            << list({text("total.allocated"), number(most), text("dataset.bytes"), number(400)})
            << QStringLiteral("MEMORY STATS: \"total.allocated\" is 9223372036854775807 bytes, more than a process can address "
                              "(2^57): not a possible reading");
        QTest::newRow("a database's table below -2^57")
            << list({text("total.allocated"), number(1000), text("dataset.bytes"), number(400), text("db.0"),
                     list({text("overhead.hashtable.main"), number(-most)})})
            << QStringLiteral("MEMORY STATS: \"db.0.overhead.hashtable.main\" is -9223372036854775807 bytes, more than a process can "
                              "address (2^57): not a possible reading");
        QTest::newRow("two databases whose sum overflows")
            << list({text("total.allocated"), number(1000), text("dataset.bytes"), number(400), text("db.0"),
                     list({text("overhead.hashtable.expires"), number(1LL << 57)}), text("db.1"),
                     list({text("overhead.hashtable.expires"), number(1LL << 57)})})
            << QStringLiteral("MEMORY STATS: \"the databases' overhead.hashtable.expires\" is 288230376151711744 bytes, more than a "
                              "process can address (2^57): not a possible reading");
    }
    void countsNoServerCanReportAreRefused()
    {
        QFETCH(Reply, reply);
        QFETCH(QString, message);
        const Outcome<std::map<QString, long long>> fields = memoryStatsFields(reply);
        QVERIFY(!fields);
        QCOMPARE(fields.error(), message);
    }

    void replyOfAnotherShapeIsAnError_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a list") << 0 << QStringLiteral("MEMORY STATS: the reply is not a list of names and values");
        QTest::newRow("odd count") << 1 << QStringLiteral("MEMORY STATS: the reply is not a list of names and values");
        QTest::newRow("name not text") << 2 << QStringLiteral("MEMORY STATS: element 0 is no field name");
        QTest::newRow("database not a list") << 3 << QStringLiteral("MEMORY STATS: \"db.0\" is not a list of names and values");
        QTest::newRow("no totals") << 4 << QStringLiteral("MEMORY STATS: the reply has no total.allocated or dataset.bytes");
    }

    void replyOfAnotherShapeIsAnError()
    {
        QFETCH(int, shape);
        QFETCH(QString, message);
        const std::vector<Reply> replies = {number(3), list({text("total.allocated")}), list({number(1), number(2)}),
                                            list({text("db.0"), number(2)}), list({text("keys.count"), number(2)})};
        const Outcome<std::map<QString, long long>> fields = memoryStatsFields(replies[size_t(shape)]);
        QVERIFY(!fields);
        QCOMPARE(fields.error(), message);
    }

    void sizeClassesAreReadByTheirColumns()
    {
        const std::string stats = "bins:           size ind    allocated      nmalloc  curregs\n"
                                  "                   8   0         5600          700      700\n"
                                  "                     ---\n"
                                  "                  16   1       182400        11400    11400\n"
                                  "                  32   2            0            0 99999999999999999999\n"
                                  "large:          size ind    allocated      nmalloc  curlextents\n"
                                  "               16384  39        65536            4            4\n"
                                  "extents:        size ind       ndirty\n";
        const Outcome<std::map<long long, long long>> regions = jemallocRegions(stats);
        QVERIFY2(regions, qPrintable(regions ? QString() : regions.error()));
        // A count too long to be one ends the table: nothing after it is read as bins.
        QCOMPARE(regions.value(), (std::map<long long, long long>{{8, 700}, {16, 11400}, {16384, 4}}));
    }

    // INFO keyspace's keys with a TTL, over every database; a count that is none gives nothing.
    void keysWithExpiryAreSummedOverDatabases()
    {
        QCOMPARE(keysWithExpiry(QStringLiteral("# Keyspace\r\ndb0:keys=10,expires=4,avg_ttl=899000\r\n"
                                               "db3:keys=2,expires=1,avg_ttl=0,subexpiry=0\r\n")),
                 std::optional<long long>(5));
        QCOMPARE(keysWithExpiry(QStringLiteral("# Keyspace\r\n")), std::optional<long long>(0));
        QCOMPARE(keysWithExpiry(QStringLiteral("db0:keys=1,expires=-1,avg_ttl=0\r\n")), std::nullopt);
        QCOMPARE(keysWithExpiry(QStringLiteral("db0:keys=1,expires=1e9,avg_ttl=0\r\n")), std::nullopt);
        QCOMPARE(keysWithExpiry(QStringLiteral("db0:keys=1,expires=9223372036854775807\r\ndb1:keys=1,expires=1\r\n")),
                 std::nullopt);
    }

    // The clients as CLIENT INFO and CLIENT LIST show them: this connection less its pending
    // replies, every other connection but a replica whole; a line Versus cannot read, a count
    // no process can hold, or a list without this connection is no reading at all.
    void clientsAreCountedAsListed_data()
    {
        QTest::addColumn<QString>("info");
        QTest::addColumn<QString>("list");
        QTest::addColumn<long long>("expected");   // -1: no reading
        const QString own = QStringLiteral("id=7 addr=127.0.0.1:50000 name= flags=N qbuf=0 omem=20504 tot-mem=42000 cmd=client|info");
        const QString ownListed = QStringLiteral("id=7 addr=127.0.0.1:50000 flags=N omem=21000 tot-mem=99999 cmd=client|list\n");
        QTest::newRow("alone") << own << ownListed << 21496LL;
        QTest::newRow("with another client and a replica")
            << own
            << ownListed + QStringLiteral("id=9 addr=127.0.0.1:50002 flags=N omem=0 tot-mem=22000 cmd=get\r\n"
                                          "id=11 addr=127.0.0.1:50004 flags=S omem=0 tot-mem=1000000 cmd=replconf\n")
            << 43496LL;
        QTest::newRow("no reply list") << QStringLiteral("id=7 tot-mem=30000") << QStringLiteral("id=7 tot-mem=1") << 30000LL;
        QTest::newRow("this connection not listed") << own << QStringLiteral("id=9 tot-mem=22000\n") << -1LL;
        QTest::newRow("a line without tot-mem") << own << ownListed + QStringLiteral("id=9 flags=N\n") << -1LL;
        QTest::newRow("a line without id") << own << ownListed + QStringLiteral("flags=N tot-mem=5\n") << -1LL;
        QTest::newRow("no id of its own") << QStringLiteral("tot-mem=42000") << ownListed << -1LL;
        QTest::newRow("a count no process can hold")
            << own << ownListed + QStringLiteral("id=9 tot-mem=999999999999999999999\n") << -1LL;
        QTest::newRow("counts that add up past 2^57")
            << own << ownListed + QStringLiteral("id=9 tot-mem=144115188075855872\nid=10 tot-mem=144115188075855872\n") << -1LL;
        QTest::newRow("a negative count") << own << ownListed + QStringLiteral("id=9 tot-mem=-5\n") << -1LL;
    }

    void clientsAreCountedAsListed()
    {
        QFETCH(QString, info);
        QFETCH(QString, list);
        QFETCH(long long, expected);
        const std::optional<long long> counted = clientsMemoryNow(info.toStdString(), list.toStdString());
        QCOMPARE(counted.value_or(-1), expected);
    }

    void connectionMemoryLeavesItsPendingRepliesOut()
    {
        QCOMPARE(connectionMemoryBeforeReplies("id=3 qbuf=0 omem=20504 tot-mem=42000 events=r"), 21496LL);
        QCOMPARE(connectionMemoryBeforeReplies("id=3 tot-mem=42000"), 42000LL);
        // Before Redis 6.2 there is no tot-mem: nothing is taken off.
        QCOMPARE(connectionMemoryBeforeReplies("id=3 omem=20504"), 0LL);
        QCOMPARE(connectionMemoryBeforeReplies("ERR unknown subcommand"), 0LL);
    }

    void anotherAllocatorsTextHasNoSizeClasses()
    {
        for (const std::string &text : {std::string("Stats not supported for the current allocator"), std::string(),
                                        std::string(1 << 20, 'x'), std::string("bins: size\n")}) {
            const Outcome<std::map<long long, long long>> regions = jemallocRegions(text);
            QVERIFY(!regions);
            QCOMPARE(regions.error(), QStringLiteral("MEMORY MALLOC-STATS: no jemalloc size classes in the reply"));
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryReport)
#include "tst_memoryreport.moc"
