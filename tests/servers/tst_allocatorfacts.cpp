// What a server's allocator says, read from the text of INFO memory and MEMORY MALLOC-STATS:
// the jemalloc quantum of a Debian package (16) and of an upstream build (8), a libc server
// that has none, a server that refuses MALLOC-STATS, and a cluster whose primaries differ.

#include "allocatorfacts.h"

#include <QtTest>

namespace {

// The head of what Valkey 9.1.2 prints (jemalloc 5.3.0); the rest is tens of KB of tables.
QString mallocStats(int quantum)
{
    return QStringLiteral("___ Begin jemalloc statistics ___\n"
                          "Version: \"5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c\"\n"
                          "Build-time option settings\n"
                          "  config.cache_oblivious: true\n"
                          "Run-time option settings\n"
                          "  opt.abort: false\n"
                          "Arenas: 4\n"
                          "Quantum size: %1\n"
                          "Page size: 4096\n"
                          "Maximum thread-cached size class: 32768\n")
        .arg(quantum);
}

QString infoMemory(const QString &allocator)
{
    return QStringLiteral("# Memory\r\nused_memory:912504\r\nmem_allocator:%1\r\nactive_defrag_running:0\r\n").arg(allocator);
}

} // namespace

class TestAllocatorFacts : public QObject {
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("info");
        QTest::addColumn<QString>("stats");
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<QString>("allocator");
        QTest::addColumn<int>("quantum");
        QTest::addColumn<QString>("problem");
        const QString jemalloc = QStringLiteral("jemalloc-5.3.0");
        QTest::newRow("Debian package") << infoMemory(jemalloc) << mallocStats(16) << QString() << jemalloc << 16 << QString();
        QTest::newRow("upstream build") << infoMemory(jemalloc) << mallocStats(8) << QString() << jemalloc << 8 << QString();
        QTest::newRow("libc") << infoMemory(QStringLiteral("libc")) << QStringLiteral("Stats not supported for the current allocator")
                              << QString() << QStringLiteral("libc") << 0 << QStringLiteral("allocator libc has no quantum");
        QTest::newRow("refused") << infoMemory(jemalloc) << QString() << QStringLiteral("ERR unknown command 'MEMORY'")
                                 << jemalloc << 0 << QStringLiteral("MEMORY MALLOC-STATS refused: ERR unknown command 'MEMORY'");
        QTest::newRow("ACL") << infoMemory(jemalloc) << QString()
                             << QStringLiteral("NOPERM User versus has no permissions to run the 'memory|malloc-stats' command")
                             << jemalloc << 0
                             << QStringLiteral("MEMORY MALLOC-STATS refused: NOPERM User versus has no permissions to run the "
                                               "'memory|malloc-stats' command");
        QTest::newRow("no quantum line") << infoMemory(jemalloc) << QStringLiteral("___ Begin jemalloc statistics ___\n")
                                         << QString() << jemalloc << 0
                                         << QStringLiteral("MEMORY MALLOC-STATS printed no \"Quantum size\" line");
        QTest::newRow("a quantum mid-line is not one") << infoMemory(jemalloc) << QStringLiteral("x Quantum size: 16\n") << QString()
                                                        << jemalloc << 0
                                                        << QStringLiteral("MEMORY MALLOC-STATS printed no \"Quantum size\" line");
    }

    void parse()
    {
        QFETCH(QString, info);
        QFETCH(QString, stats);
        QFETCH(QString, refusal);
        QFETCH(QString, allocator);
        QFETCH(int, quantum);
        QFETCH(QString, problem);
        const AllocatorFacts facts = parseAllocatorFacts(info, stats, refusal);
        QCOMPARE(facts.memAllocator, allocator);
        QCOMPARE(facts.quantumBytes, quantum);
        QCOMPARE(facts.quantumProblem, problem);
    }

    void clusterPrimaries()
    {
        AllocatorFacts debian;
        debian.memAllocator = QStringLiteral("jemalloc-5.3.0");
        debian.quantumBytes = 16;
        QCOMPARE(combinedAllocatorFacts({{QStringLiteral("127.0.0.1:7000"), debian}, {QStringLiteral("127.0.0.1:7001"), debian}}), debian);
        AllocatorFacts upstream = debian;
        upstream.quantumBytes = 8;
        const AllocatorFacts mixed = combinedAllocatorFacts({{QStringLiteral("127.0.0.1:7000"), debian},
                                                             {QStringLiteral("127.0.0.1:7001"), upstream}});
        QCOMPARE(mixed.quantumBytes, 0);
        QCOMPARE(mixed.quantumProblem, QStringLiteral("the primaries differ: 127.0.0.1:7000 jemalloc-5.3.0, quantum 16 B; "
                                                      "127.0.0.1:7001 jemalloc-5.3.0, quantum 8 B"));
        QCOMPARE(combinedAllocatorFacts({}), AllocatorFacts());
    }
};

QTEST_GUILESS_MAIN(TestAllocatorFacts)
#include "tst_allocatorfacts.moc"
