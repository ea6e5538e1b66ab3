// The server's own memory accounting (memoryreport.h) against every version the tests run, and
// the upstream Valkey 8.0.1 build: what MEMORY STATS and MALLOC-STATS say is read as the Why
// view needs it, and reading them at a pass's settled points does not move the pass's figure.

#include "memoryreport.h"
#include "redisconnection.h"
#include "resp.h"
#include "serverprocess.h"
#include "serversession.h"
#include "servertesthelpers.h"

#include <QTest>
#include <QThread>
#include <algorithm>
#include <cstdlib>
#include <functional>

namespace AccountingPasses {

// Every version the tests run, and the upstream build of Valkey 8.0.1 that scripts/test makes.
std::vector<ServerSpec> serversUnderTest(QString &missing)
{
    std::vector<ServerSpec> specs;
    for (const QString &prefix : ServerTestHelpers::requiredServerPrefixes()) {
        if (const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix))
            specs.push_back(*spec);
    }
    if (const std::optional<ServerSpec> built = ServerTestHelpers::findBuiltServer(QStringLiteral("valkey-8.0.1-upstream")))
        specs.push_back(*built);
    missing = ServerTestHelpers::missingServersMessage();
    if (missing.isEmpty() && specs.size() < 6)
        missing = QStringLiteral("the upstream build valkey-8.0.1-upstream is missing (scripts/test builds it)");
    return specs;
}

// `keys` keys, half strings with a TTL and half small hashes, pipelined on a connection of their own.
Status fillKeys(ServerProcess &server, int keys)
{
    std::string batch;
    for (int i = 0; i < keys; ++i) {
        const std::string key = "why:" + std::to_string(i);
        if (i % 2 == 0)
            appendRespCommand({"SET", key, std::string(20 + i % 40, 'v'), "EX", "900"}, batch);
        else
            appendRespCommand({"HSET", key, "f", std::string(10, 'h'), "g", std::to_string(i)}, batch);
    }
    return ServerTestHelpers::sendPipeline(server, batch, keys);
}

// Starts each server under test with a measuring session and hands both to `check`; a
// missing server fails (or skips, outside CI) the test.
void forEachServer(const std::function<void(ServerProcess &, ServerSession &, const ServerSpec &)> &check)
{
    QString missing;
    const std::vector<ServerSpec> specs = serversUnderTest(missing);
    if (!missing.isEmpty())
        VERSUS_SERVER_MISSING(missing);
    for (const ServerSpec &spec : specs) {
        ServerProcess server(spec);
        ServerSession session;
        const Status ready = ServerTestHelpers::startWithSession(server, session, spec);
        QVERIFY2(ready, qPrintable(ready.error()));
        check(server, session, spec);
        server.stop();
        if (QTest::currentTestFailed())
            return;
    }
}

// A pass as PassRunner takes it: flushed, settled figure, [accounting], replay, settled
// figure, [accounting]. Returns the figure's change.
Outcome<long long> passDelta(ServerSession &session, ServerProcess &server, int keys, bool readAccounting)
{
    if (Status flushed = session.flushSync(5000); !flushed)
        return Error{flushed.error()};
    const Outcome<long long> baseline = session.settledUsedMemory(3000);
    if (!baseline)
        return baseline;
    if (readAccounting) {
        if (Outcome<MemoryAccounting> before = readMemoryAccounting(session.connection()); !before)
            return Error{before.error()};
    }
    if (Status filled = fillKeys(server, keys); !filled)
        return Error{filled.error()};
    const Outcome<long long> after = session.settledUsedMemory(3000);
    if (!after)
        return after;
    if (readAccounting) {
        if (Outcome<MemoryAccounting> later = readMemoryAccounting(session.connection()); !later)
            return Error{later.error()};
    }
    return after.value() - baseline.value();
}

} // namespace AccountingPasses

using namespace AccountingPasses;

class TestMemoryAccounting : public QObject {
    Q_OBJECT

private slots:
    // MEMORY STATS splits used_memory: overhead.total is the startup memory, the clients, the
    // scripts' caches and the key tables, and nothing else the parts leave out (a field Versus
    // did not know would land in "server overhead", never lost). MALLOC-STATS gives the live
    // regions per size class, and their bytes are jemalloc's allocated bytes.
    void readsTheServersOwnAccounting()
    {
        forEachServer([](ServerProcess &server, ServerSession &session, const ServerSpec &spec) {
            const Status filled = fillKeys(server, 4000);
            QVERIFY2(filled, qPrintable(filled.error()));
            const Outcome<MemoryAccounting> read = readMemoryAccounting(session.connection());
            QVERIFY2(read, qPrintable(read.error()));
            const MemoryAccounting &a = read.value();
            QVERIFY2(a.hasStats(), qPrintable(spec.label + QStringLiteral(": ") + a.statsUnavailable));
            QVERIFY2(a.hasRegions(), qPrintable(spec.label + QStringLiteral(": ") + a.regionsUnavailable));
            QCOMPARE(a.field("keys.count"), 4000LL);
            // Half of them have a TTL: the expires table's entries (INFO keyspace, kept beside the fields).
            QCOMPARE(a.keysWithExpiry(), std::optional<long long>(2000));
            // Every key is in the main table, half of them in the expires table too.
            QVERIFY2(a.field("db.overhead.hashtable.main") > 4000 * 8, qPrintable(spec.label));
            QVERIFY2(a.field("db.overhead.hashtable.expires") > 2000 * 8, qPrintable(spec.label));
            QVERIFY2(a.field("db.overhead.hashtable.main") > a.field("db.overhead.hashtable.expires"), qPrintable(spec.label));
            QCOMPARE(a.field("total.allocated") - a.field("overhead.total"), a.field("dataset.bytes"));
            long long known = 0;
            for (const char *part : {"startup.allocated", "clients.normal", "clients.slaves", "replication.backlog",
                                     "replicas.repl.buffer", "aof.buffer", "lua.caches", "functions.caches", "script.VMs",
                                     "cluster.links", "db.overhead.hashtable.main", "db.overhead.hashtable.expires",
                                     "db.overhead.hashtable.slot-to-keys"})
                known += a.field(part);
            QVERIFY2(known == a.field("overhead.total"),
                     qPrintable(QStringLiteral("%1: overhead.total %2, its known parts %3").arg(spec.label).arg(a.field("overhead.total")).arg(known)));
            long long regions = 0;
            long long regionBytes = 0;
            for (const auto &[size, count] : a.regions) {
                regions += count;
                regionBytes += size * count;
            }
            // At least one allocation per key, and the allocator holds at least what the server counts.
            QVERIFY2(regions > 4000, qPrintable(spec.label));
            QVERIFY2(regionBytes >= a.field("total.allocated") - a.field("startup.allocated"), qPrintable(spec.label));
            qInfo("%s: overhead %lld, dataset %lld, %lld live regions", qPrintable(spec.label), a.field("overhead.total"),
                  a.field("dataset.bytes"), regions);
        });
    }

    // The same pass with and without the accounting read at its settled points gives the same
    // figure to the byte, on every version: the reads come after each memory figure and leave
    // nothing allocated that the next figure would count.
    void accountingLeavesTheFigureUnchanged()
    {
        forEachServer([](ServerProcess &server, ServerSession &session, const ServerSpec &spec) {
            QVERIFY(session.noteIdleClients());
            // The first pass pays for what a server allocates on first use; it is not compared.
            QVERIFY(passDelta(session, server, 6000, true));
            // Passes without and with the reads, taking turns. On a loaded machine one pass's figure
            // was once 376 bytes off the others (the cause is not known), so the median of each
            // kind is compared, to the byte.
            std::vector<long long> without;
            std::vector<long long> with;
            for (int pass = 0; pass < 6; ++pass) {
                const Outcome<long long> delta = passDelta(session, server, 6000, pass % 2 == 1);
                QVERIFY2(delta, qPrintable(delta.error()));
                (pass % 2 == 1 ? with : without).push_back(delta.value());
            }
            qInfo("%s: %lld, %lld and %lld bytes without the reads; %lld, %lld and %lld with them", qPrintable(spec.label),
                  without[0], without[1], without[2], with[0], with[1], with[2]);
            std::sort(without.begin(), without.end());
            std::sort(with.begin(), with.end());
            QCOMPARE(with[1], without[1]);
        });
    }

    // MEMORY STATS counts the clients as the server's cron last saw them, once a second per
    // client: replies pending at that moment stay in clients.normal, and out of dataset.bytes,
    // after they were sent and freed. With the cron slowed to once a second and 16 MB of
    // replies left unread across its turn, dataset.bytes read right after the replies and read
    // again after two more turns differ by megabytes with no key written; the data as Versus
    // reads it (the clients as listed) is the same in both. MEMORY MALLOC-STATS and the first
    // megabyte replies allocate for good on first use (some 50 and 40 KB on Valkey 8.0.1): a
    // round of each comes first.
    void clientsAreCountedAsTheyAreNotAsTheCronLastSawThem()
    {
        forEachServer([](ServerProcess &server, ServerSession &session, const ServerSpec &spec) {
            RedisConnection &connection = session.connection();
            QCOMPARE(connection.command({"CONFIG", "SET", "hz", "1"})->text, std::string("OK"));
            std::string write;
            appendRespCommand({"SET", "big", std::string(size_t(1) << 20, 'b')}, write);
            const Status written = ServerTestHelpers::sendPipeline(server, write, 1);
            QVERIFY2(written, qPrintable(written.error()));
            // 16 MB of replies, read after `unreadMs`.
            const auto bigReplies = [&](unsigned long unreadMs) {
                for (int get = 0; get < 16; ++get)
                    QVERIFY(connection.appendCommand({"GET", "big"}));
                QVERIFY(connection.flush());
                QThread::msleep(unreadMs);
                for (int get = 0; get < 16; ++get) {
                    const Outcome<Reply> reply = connection.readReply();
                    QVERIFY2(reply && reply->text.size() == (size_t(1) << 20), qPrintable(reply ? spec.label : reply.error()));
                }
            };
            QVERIFY(readMemoryAccounting(connection));
            bigReplies(0);
            QVERIFY(!QTest::currentTestFailed());
            long long largestStale = 0;
            // A cron turn between the last reply read and MEMORY STATS refreshes the count; a
            // second, third… attempt finds it stale.
            for (int attempt = 0; attempt < 5 && largestStale < (1 << 20); ++attempt) {
                bigReplies(1500);   // a cron turn counts the replies still pending
                if (QTest::currentTestFailed())
                    return;
                const Outcome<MemoryAccounting> stale = readMemoryAccounting(connection);
                QVERIFY2(stale && stale->hasStats(), qPrintable(stale ? stale->statsUnavailable : stale.error()));
                QThread::msleep(2500);   // two more turns see this connection idle
                const Outcome<MemoryAccounting> fresh = readMemoryAccounting(connection);
                QVERIFY2(fresh && fresh->hasStats(), qPrintable(fresh ? fresh->statsUnavailable : fresh.error()));
                QVERIFY2(stale->stats.count(QLatin1String(MemoryStatsField::kClientsLag)) && fresh->stats.count(QLatin1String(MemoryStatsField::kClientsLag)),
                         qPrintable(spec.label));
                const long long rawChange = fresh->field(MemoryStatsField::kDataset) - stale->field(MemoryStatsField::kDataset);
                const long long change = fresh->dataset() - stale->dataset();
                qInfo("%s: dataset.bytes %lld then %lld (lag %lld then %lld); the data moved %lld", qPrintable(spec.label),
                      stale->field(MemoryStatsField::kDataset), fresh->field(MemoryStatsField::kDataset), stale->clientsLag(),
                      fresh->clientsLag(), change);
                QVERIFY2(std::llabs(change) <= 4096,
                         qPrintable(QStringLiteral("%1: the data moved by %2 bytes with no key written (dataset.bytes by %3)")
                                        .arg(spec.label).arg(change).arg(rawChange)));
                QCOMPARE(stale->dataset() + stale->overheadTotal(), stale->field(MemoryStatsField::kTotalAllocated));
                largestStale = std::max(largestStale, rawChange);
            }
            QVERIFY2(largestStale >= (1 << 20), qPrintable(QStringLiteral("%1: the count was never stale (dataset.bytes moved %2 bytes at most)")
                                                              .arg(spec.label).arg(largestStale)));
        });
    }
};

QTEST_GUILESS_MAIN(TestMemoryAccounting)
#include "tst_memoryaccounting.moc"
