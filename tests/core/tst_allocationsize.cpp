// The bytes an allocation takes, as used_memory counts it: jemalloc's size classes at the two
// quanta Versus meets (16 B: Debian's system jemalloc; 8 B: the servers' bundled one), and
// glibc's usable size. The classes are those jemalloc's size-class rules give, checked at each
// boundary where the spacing changes.

#include "allocationsize.h"

#include <QtTest>

class TestAllocationSize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jemallocClasses_data()
    {
        QTest::addColumn<int>("quantum");
        QTest::addColumn<long long>("bytes");
        QTest::addColumn<long long>("served");
        // A hash-table entry of Valkey 8.0 (key, value, next).
        QTest::newRow("24 at 16") << 16 << 24LL << 32LL;
        QTest::newRow("24 at 8") << 8 << 24LL << 24LL;
        // With the slot-to-keys links of Redis 7.0 in cluster mode.
        QTest::newRow("40 at 16") << 16 << 40LL << 48LL;
        QTest::newRow("40 at 8") << 8 << 40LL << 40LL;
        // Below the quantum: the tiny class of 8.
        QTest::newRow("1 at 16") << 16 << 1LL << 8LL;
        QTest::newRow("8 at 16") << 16 << 8LL << 8LL;
        QTest::newRow("9 at 16") << 16 << 9LL << 16LL;
        QTest::newRow("1 at 8") << 8 << 1LL << 8LL;
        QTest::newRow("9 at 8") << 8 << 9LL << 16LL;
        // Quantum steps up to eight quanta, then four classes per doubling.
        QTest::newRow("128 at 16") << 16 << 128LL << 128LL;
        QTest::newRow("129 at 16") << 16 << 129LL << 160LL;
        QTest::newRow("257 at 16") << 16 << 257LL << 320LL;
        QTest::newRow("64 at 8") << 8 << 64LL << 64LL;
        QTest::newRow("65 at 8") << 8 << 65LL << 80LL;
        QTest::newRow("129 at 8") << 8 << 129LL << 160LL;
        // Bucket arrays: powers of two are classes of every quantum.
        QTest::newRow("32 KiB at 16") << 16 << 32768LL << 32768LL;
        QTest::newRow("256 KiB at 8") << 8 << 262144LL << 262144LL;
        QTest::newRow("256 KiB + 1 at 16") << 16 << 262145LL << 327680LL;
    }
    void jemallocClasses()
    {
        QFETCH(int, quantum);
        QFETCH(long long, bytes);
        QFETCH(long long, served);
        QCOMPARE(jemallocSizeClass(bytes, quantum), std::optional<long long>(served));
    }

    void glibcUsableSizes()
    {
        // 8-byte header, 16-byte chunks of at least 32: a 24 B entry fits its smallest chunk.
        QCOMPARE(glibcUsableSize(1), std::optional<long long>(24));
        QCOMPARE(glibcUsableSize(24), std::optional<long long>(24));
        QCOMPARE(glibcUsableSize(25), std::optional<long long>(40));
        QCOMPARE(glibcUsableSize(40), std::optional<long long>(40));
        QCOMPARE(glibcUsableSize(41), std::optional<long long>(56));
    }

    void unknownAllocatorsAndArgumentsGiveNothing()
    {
        QCOMPARE(jemallocSizeClass(24, 0), std::nullopt);
        QCOMPARE(jemallocSizeClass(24, 32), std::nullopt);
        QCOMPARE(jemallocSizeClass(0, 16), std::nullopt);
        QCOMPARE(jemallocSizeClass(-5, 16), std::nullopt);
        QCOMPARE(jemallocSizeClass((1LL << 40) + 1, 16), std::nullopt);
        QCOMPARE(glibcUsableSize(0), std::nullopt);

        AllocatorFacts debian{QStringLiteral("jemalloc-5.3.0"), 16, QString()};
        QCOMPARE(servedBytes(debian, 24), std::optional<long long>(32));
        AllocatorFacts upstream{QStringLiteral("jemalloc-5.3.0"), 8, QString()};
        QCOMPARE(servedBytes(upstream, 24), std::optional<long long>(24));
        AllocatorFacts libc{QStringLiteral("libc"), 0, QStringLiteral("allocator libc has no quantum")};
        QCOMPARE(servedBytes(libc, 25), std::optional<long long>(40));
        AllocatorFacts unknownQuantum{QStringLiteral("jemalloc-5.3.0"), 0, QStringLiteral("MEMORY MALLOC-STATS refused")};
        QCOMPARE(servedBytes(unknownQuantum, 24), std::nullopt);
        QCOMPARE(servedBytes(AllocatorFacts(), 24), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestAllocationSize)
#include "tst_allocationsize.moc"
