// INFO parsing against output captured from the real servers (tests/fixtures/info/), after
// CONFIG RESETSTAT, 2 SET, 1 HSET, 3 INCR, CONFIG GET, GET and one INFO.

#include "infoparser.h"

#include <QFile>
#include <QTest>

namespace {

QString fixture(const QString &name)
{
    QFile file(QStringLiteral(VERSUS_FIXTURES "/info/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(file.readAll());
}

// "name calls usec" per command, sorted by name, one per line: exact and readable on failure.
QString describe(const std::map<QString, CommandStat> &stats)
{
    QStringList lines;
    for (const auto &[name, stat] : stats)
        lines << QStringLiteral("%1 %2 %3").arg(name).arg(stat.calls).arg(stat.usec);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestInfoParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fixturesAreThere_data();
    void fixturesAreThere();
    void infoServer_data();
    void infoServer();
    void commandStats_data();
    void commandStats();
    void memoryFields_data();
    void memoryFields();
    void fieldsIgnoreHeadersAndBlankLines();
    void commandStatsEdgeCases_data();
    void commandStatsEdgeCases();
    void errorCounts_data();
    void errorCounts();
    void serverClock();
    void serverClockHostileValues_data();
    void serverClockHostileValues();
    void countsOutOfRangeAreErrors_data();
    void countsOutOfRangeAreErrors();
};

void TestInfoParser::fixturesAreThere_data()
{
    QTest::addColumn<QString>("name");
    for (const char *label : {"valkey-8.0.1", "valkey-8.1.1", "valkey-9.1.2", "redis-7.0.15"}) {
        for (const char *section : {"server", "commandstats", "memory"}) {
            const QString name = QStringLiteral("%1-%2.txt").arg(QLatin1String(label), QLatin1String(section));
            QTest::newRow(qPrintable(name)) << name;
        }
    }
}

void TestInfoParser::fixturesAreThere()
{
    QFETCH(QString, name);
    const QString text = fixture(name);
    QVERIFY2(!text.isEmpty(), qPrintable(name + QStringLiteral(" is missing or empty")));
    QVERIFY2(text.contains(QLatin1String("\r\n")), "INFO output uses CRLF; the fixture must keep it");
}

void TestInfoParser::infoServer_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("product");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("redisVersion");

    // Every Valkey says redis_version:7.2.4; only valkey_version tells them apart.
    QTest::newRow("valkey-8.0.1") << "valkey-8.0.1-server.txt" << "valkey" << "8.0.1" << "7.2.4";
    QTest::newRow("valkey-8.1.1") << "valkey-8.1.1-server.txt" << "valkey" << "8.1.1" << "7.2.4";
    QTest::newRow("valkey-9.1.2") << "valkey-9.1.2-server.txt" << "valkey" << "9.1.2" << "7.2.4";
    QTest::newRow("redis-7.0.15") << "redis-7.0.15-server.txt" << "redis" << "7.0.15" << "7.0.15";
}

void TestInfoParser::infoServer()
{
    QFETCH(QString, file);
    QFETCH(QString, product);
    QFETCH(QString, version);
    QFETCH(QString, redisVersion);

    const QString text = fixture(file);
    const InfoServer server = parseInfoServer(text);
    QCOMPARE(server.product, product);
    QCOMPARE(server.version, version);
    QCOMPARE(parseInfoFields(text).at(QStringLiteral("redis_version")), redisVersion);
}

void TestInfoParser::commandStats_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");

    QTest::newRow("valkey-8.0.1") << "valkey-8.0.1-commandstats.txt"
                                  << "config|get 1 37\nconfig|resetstat 1 44\nget 1 2\nhset 1 11\n"
                                     "incr 3 7\ninfo 1 40\nset 2 40";
    QTest::newRow("valkey-8.1.1") << "valkey-8.1.1-commandstats.txt"
                                  << "config|get 1 65\nconfig|resetstat 1 33\nget 1 2\nhset 1 11\n"
                                     "incr 3 6\ninfo 1 49\nset 2 25";
    QTest::newRow("valkey-9.1.2") << "valkey-9.1.2-commandstats.txt"
                                  << "config|get 1 11\nconfig|resetstat 1 34\nget 1 3\nhset 1 48\n"
                                     "incr 3 29\ninfo 1 24\nset 2 49";
    QTest::newRow("redis-7.0.15") << "redis-7.0.15-commandstats.txt"
                                  << "config|get 1 36\nconfig|resetstat 1 43\nget 1 3\nhset 1 46\n"
                                     "incr 3 4\ninfo 1 37\nset 2 10";
}

void TestInfoParser::commandStats()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);

    const std::map<QString, CommandStat> stats = parseCommandStats(fixture(file));
    QCOMPARE(describe(stats), expected);
    // µs per call comes from the sums, not from the server's rounded usec_per_call.
    QCOMPARE(stats.at(QStringLiteral("incr")).usecPerCall(),
             double(stats.at(QStringLiteral("incr")).usec) / 3.0);
}

void TestInfoParser::memoryFields_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("usedMemory");
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<QString>("allocator");

    QTest::newRow("valkey-8.0.1") << "valkey-8.0.1-memory.txt" << "1120720" << "190632" << "jemalloc-5.3.0";
    QTest::newRow("valkey-8.1.1") << "valkey-8.1.1-memory.txt" << "1082744" << "190112" << "jemalloc-5.3.0";
    QTest::newRow("valkey-9.1.2") << "valkey-9.1.2-memory.txt" << "1088248" << "165496" << "jemalloc-5.3.1";
    QTest::newRow("redis-7.0.15") << "redis-7.0.15-memory.txt" << "1087888" << "211192" << "jemalloc-5.3.0";
}

void TestInfoParser::memoryFields()
{
    QFETCH(QString, file);
    QFETCH(QString, usedMemory);
    QFETCH(QString, dataset);
    QFETCH(QString, allocator);

    const std::map<QString, QString> fields = parseInfoFields(fixture(file));
    QCOMPARE(fields.at(QStringLiteral("used_memory")), usedMemory);
    QCOMPARE(fields.at(QStringLiteral("used_memory_dataset")), dataset);
    QCOMPARE(fields.at(QStringLiteral("mem_allocator")), allocator);
    QCOMPARE(fields.at(QStringLiteral("lazyfree_pending_objects")), QStringLiteral("0"));
    QCOMPARE(fields.count(QStringLiteral("# Memory")), size_t(0));
    // Values are kept whole: no trailing '\r', and a value's own ':' survives.
    for (const auto &[name, value] : fields) {
        QVERIFY2(!value.endsWith(QLatin1Char('\r')), qPrintable(name));
        QVERIFY2(!name.isEmpty(), qPrintable(value));
    }
}

void TestInfoParser::fieldsIgnoreHeadersAndBlankLines()
{
    const QString text = QStringLiteral("# Server\r\nredis_version:7.2.4\r\n\r\nexecutable:/tmp/a:b\r\n"
                                        "no colon here\r\n:novalue\r\nempty:\r\n# Clients\r\nconnected_clients:1\r\n");
    const std::map<QString, QString> fields = parseInfoFields(text);
    const std::map<QString, QString> expected{
        {QStringLiteral("redis_version"), QStringLiteral("7.2.4")},
        {QStringLiteral("executable"), QStringLiteral("/tmp/a:b")},
        {QStringLiteral("empty"), QString()},
        {QStringLiteral("connected_clients"), QStringLiteral("1")},
    };
    QCOMPARE(fields, expected);
    QVERIFY(parseInfoFields(QString()).empty());

    const InfoServer nothing = parseInfoServer(QString());
    QCOMPARE(nothing.product, QString());
    QCOMPARE(nothing.version, QString());
}

void TestInfoParser::commandStatsEdgeCases_data()
{
    QTest::addColumn<QString>("info");
    QTest::addColumn<QString>("expected");

    QTest::newRow("empty") << "" << "";
    QTest::newRow("LF only") << "cmdstat_get:calls=2,usec=5,usec_per_call=2.50\n" << "get 2 5";
    QTest::newRow("upper-case name") << "cmdstat_HSETEX:calls=1,usec=9\r\n" << "hsetex 1 9";
    QTest::newRow("fields in another order") << "cmdstat_set:usec_per_call=4.00,usec=12,calls=3\r\n" << "set 3 12";
    QTest::newRow("other INFO lines ignored") << "# Commandstats\r\nused_memory:100\r\ncmdstat_ping:calls=1,usec=1\r\n"
                                              << "ping 1 1";
    QTest::newRow("subcommand") << "cmdstat_memory|usage:calls=10,usec=30\r\n" << "memory|usage 10 30";
    QTest::newRow("big sums") << "cmdstat_sismember:calls=123456789012,usec=987654321098\r\n"
                              << "sismember 123456789012 987654321098";
}

void TestInfoParser::commandStatsEdgeCases()
{
    QFETCH(QString, info);
    QFETCH(QString, expected);
    QCOMPARE(describe(parseCommandStats(info)), expected);
}

void TestInfoParser::errorCounts_data()
{
    QTest::addColumn<QString>("info");
    QTest::addColumn<long long>("outOfMemory");

    // As Valkey 9.1.2 wrote it under maxmemory 2mb and noeviction.
    QTest::newRow("OOM among others") << "# Errorstats\r\nerrorstat_ERR:count=2\r\nerrorstat_OOM:count=14134\r\n" << 14134LL;
    QTest::newRow("none") << "# Errorstats\r\nerrorstat_WRONGTYPE:count=5\r\n" << 0LL;
    QTest::newRow("no errorstats (before 6.2)") << "" << 0LL;
    QTest::newRow("a prefix that only starts with OOM") << "errorstat_OOMX:count=3\r\n" << 0LL;
    QTest::newRow("more fields after the count") << "errorstat_OOM:count=7,extra=1\r\n" << 7LL;
}

void TestInfoParser::errorCounts()
{
    QFETCH(QString, info);
    QFETCH(long long, outOfMemory);
    QCOMPARE(parseErrorCount(info, u"OOM"), outOfMemory);
}

// INFO stats cpu of a fresh server after one INCR (the capture's own INFO not yet counted):
// Valkey reports its event loop, Redis 7.0 does not, and its absence stays absence.
void TestInfoParser::serverClock()
{
    const ServerClock valkey = parseServerClock(fixture(QStringLiteral("valkey-9.1.2-stats-cpu.txt")));
    QCOMPARE(valkey.mainThreadCpuUsec, std::optional<long long>(9142));
    QCOMPARE(valkey.eventLoopCycles, std::optional<long long>(8));
    QCOMPARE(valkey.eventLoopUsec, std::optional<long long>(794));
    QCOMPARE(valkey.eventLoopCommandUsec, std::optional<long long>(16));
    QCOMPARE(valkey.commandsProcessed, std::optional<long long>(3));
    const ServerClock redis = parseServerClock(fixture(QStringLiteral("redis-7.0.15-stats-cpu.txt")));
    QCOMPARE(redis.mainThreadCpuUsec, std::optional<long long>(9556));
    QCOMPARE(redis.commandsProcessed, std::optional<long long>(1));
    QVERIFY(!redis.eventLoopCycles && !redis.eventLoopUsec && !redis.eventLoopCommandUsec);
}

void TestInfoParser::serverClockHostileValues_data()
{
    QTest::addColumn<QString>("info");
    QTest::newRow("negative") << "eventloop_duration_sum:-4\r\nused_cpu_user_main_thread:-0.5\r\nused_cpu_sys_main_thread:0.1\r\n";
    QTest::newRow("text") << "eventloop_duration_sum:lots\r\nused_cpu_user_main_thread:abc\r\nused_cpu_sys_main_thread:0.1\r\n";
    QTest::newRow("beyond range") << "eventloop_duration_sum:99999999999999999999\r\nused_cpu_user_main_thread:1e300\r\n"
                                     "used_cpu_sys_main_thread:0.1\r\n";
    QTest::newRow("one half of the CPU") << "eventloop_duration_sum:\r\nused_cpu_sys_main_thread:0.1\r\n";
}

// A counter that is not a number of 0 or more is no figure: absent, never 0 or a wrapped value.
void TestInfoParser::serverClockHostileValues()
{
    QFETCH(QString, info);
    const ServerClock clock = parseServerClock(info);
    QVERIFY(!clock.eventLoopUsec);
    QVERIFY(!clock.mainThreadCpuUsec);
}

// used_memory:100000000000000000000000 from a rewriting proxy read as 0 with toLongLong, and
// the memory figure as −35.8 bytes per key: a count is a whole number of 64 bits or an error
// naming the server, the section and the field.
void TestInfoParser::countsOutOfRangeAreErrors_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error");
    const QString notACount = QStringLiteral("valkey-9.1.2: INFO memory used_memory is %1, not a count from 0 to 9223372036854775807");
    QTest::newRow("largest") << QStringLiteral("9223372036854775807") << QString();
    QTest::newRow("zero") << QStringLiteral("0") << QString();
    QTest::newRow("10^23") << QStringLiteral("100000000000000000000000") << notACount.arg(QStringLiteral("\"100000000000000000000000\""));
    QTest::newRow("2^63") << QStringLiteral("9223372036854775808") << notACount.arg(QStringLiteral("\"9223372036854775808\""));
    QTest::newRow("negative") << QStringLiteral("-5") << notACount.arg(QStringLiteral("\"-5\""));
    QTest::newRow("plus sign") << QStringLiteral("+5") << notACount.arg(QStringLiteral("\"+5\""));
    QTest::newRow("fraction") << QStringLiteral("1.5") << notACount.arg(QStringLiteral("\"1.5\""));
    QTest::newRow("text") << QStringLiteral("lots") << notACount.arg(QStringLiteral("\"lots\""));
    QTest::newRow("empty") << QString() << notACount.arg(QStringLiteral("\"\""));
}

void TestInfoParser::countsOutOfRangeAreErrors()
{
    QFETCH(QString, value);
    QFETCH(QString, error);
    const auto fields = parseInfoFields(QStringLiteral("# Memory\r\nused_memory:%1\r\nused_memory_human:1K\r\n").arg(value));
    const Outcome<long long> count = infoCount(fields, QStringLiteral("used_memory"), QStringLiteral("valkey-9.1.2: INFO memory"));
    if (error.isEmpty()) {
        QVERIFY2(count, qPrintable(count ? QString() : count.error()));
        QCOMPARE(count.value(), value.toLongLong());
    } else {
        QVERIFY(!count);
        QCOMPARE(count.error(), error);
    }
    QCOMPARE(parseInfoCount(value).has_value(), error.isEmpty());
    // Absent: an error, or the fallback when there is one.
    QVERIFY(!infoCount(fields, QStringLiteral("evicted_keys"), QStringLiteral("x")));
    QCOMPARE(infoCount(fields, QStringLiteral("evicted_keys"), QStringLiteral("x"), 0).value(), 0LL);
}

QTEST_GUILESS_MAIN(TestInfoParser)
#include "tst_infoparser.moc"
