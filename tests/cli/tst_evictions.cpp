// A server whose maxmemory is too small for the workload: what it evicted or refused is read from
// the server at each pass's edges, kept in the bundle, and leaves the pass without a memory
// figure, with the reason, in the figures, the printed answer and the exit code. Real servers
// through the versus program, launched with --server-config.

#include "bundlejson.h"
#include "figures.h"
#include "versuscli.h"

#include <QtTest>

namespace {

constexpr long long kHashTtlKeys = 20000;

} // namespace

class EvictionsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // allkeys-lru makes room for each write by evicting older keys: no command fails, and only the
    // server's evicted_keys says that the keys the memory figure divides over are not the workload's.
    void evictedKeysLeaveNoMemoryFigure_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::newRow("allkeys-lru") << QStringLiteral("allkeys-lru");
        QTest::newRow("noeviction") << QStringLiteral("noeviction");
    }
    void evictedKeysLeaveNoMemoryFigure()
    {
        QFETCH(QString, policy);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(
            {QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=%1").arg(kHashTtlKeys),
             QStringLiteral("--server-config"), QStringLiteral("maxmemory=2mb"), QStringLiteral("--server-config"),
             QStringLiteral("maxmemory-policy=") + policy, QStringLiteral("--out"), bundlePath},
            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        QVERIFY(cli.leftoverServers().empty());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const bool evicting = policy != QLatin1String("noeviction");
        const TypeMemory &setEx = bundle->server(server.label)->repeats.front().byType.at(QStringLiteral("set-ex"));
        // Each event writes one key: what is not there was evicted, or refused.
        QVERIFY2(setEx.keys > 0 && setEx.keys < kHashTtlKeys, qPrintable(QString::number(setEx.keys)));
        QCOMPARE(evicting ? setEx.loss.evictedKeys : setEx.loss.refusedWrites, kHashTtlKeys - setEx.keys);
        QCOMPARE(evicting ? setEx.loss.refusedWrites : setEx.loss.evictedKeys, 0LL);

        const Figures figures(bundle.value());
        const FigureTable memory = figures.memory();
        const Figure &figure = memory.at(memory.categoryIndex(QStringLiteral("set-ex")), server.label);
        const QLocale english(QLocale::English);
        const QString lost = evicting ? QStringLiteral("evicted %1 keys").arg(english.toString(setEx.loss.evictedKeys))
                                      : QStringLiteral("refused %1 writes as out of memory").arg(english.toString(setEx.loss.refusedWrites));
        QCOMPARE(figure.state, FigureState::Failed);
        QCOMPARE(figure.note, QStringLiteral("unavailable: the server %1 during the pass (maxmemory 2mb, %2)").arg(lost, policy));
        QCOMPARE(figures.summary(server.label).verdict, ServerVerdict::LostData);
        QVERIFY2(r.out.contains(QStringLiteral("No memory figure for Valkey %1: it ").arg(server.identity.version)), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("data check: %1 lost data: ").arg(server.label)), r.describe());
    }
};

QTEST_GUILESS_MAIN(EvictionsTest)
#include "tst_evictions.moc"
