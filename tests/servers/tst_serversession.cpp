// ServerSession against the real fetched servers: a key survey must not change what the next
// pass measures. A connection that sends more than one read's worth of pipeline keeps a query
// buffer of its own; on Redis 8 the survey's, left on the session, moved the next pass's figure
// by 20,480 bytes (docs/MEASUREMENT.md).

#include "allocatorfacts.h"
#include "redisconnection.h"
#include "resp.h"
#include "serverprocess.h"
#include "serversession.h"
#include "servertesthelpers.h"

#include <QTest>

namespace {

Status fillKeys(ServerProcess &server, int keys)
{
    std::string batch;
    for (int i = 0; i < keys; ++i)
        appendRespCommand({"SET", "survey:" + std::to_string(i), std::string(40, 'v')}, batch);
    return ServerTestHelpers::sendPipeline(server, batch, keys);
}

// The figure a pass of `keys` SETs on a connection of its own adds, as PassRunner takes it:
// flushed, settled, replayed, settled.
Outcome<long long> passDelta(ServerSession &session, ServerProcess &server, int keys)
{
    if (Status flushed = session.flushSync(5000); !flushed)
        return Error{flushed.error()};
    const Outcome<long long> baseline = session.settledUsedMemory(3000);
    if (!baseline)
        return baseline;
    if (Status filled = fillKeys(server, keys); !filled)
        return Error{filled.error()};
    const Outcome<long long> after = session.settledUsedMemory(3000);
    if (!after)
        return after;
    return after.value() - baseline.value();
}

// `keys` SET … EX commands in pipelines of `batch`, each pipeline's replies read before the next.
Status setWithTtlInBatches(ServerProcess &server, int keys, int batch)
{
    RedisConnection connection;
    if (Status connected = server.connect(connection, 2000); !connected)
        return connected;
    for (int first = 0; first < keys; first += batch) {
        std::string pipeline;
        const int count = std::min(batch, keys - first);
        for (int i = first; i < first + count; ++i)
            appendRespCommand({"SET", "user:" + std::to_string(i) + ":auth_token", std::string(120, 'v'), "EX", "900"}, pipeline);
        if (Status sent = connection.exchange(pipeline, size_t(count)); !sent)
            return sent;
    }
    return Status::success();
}

} // namespace

class TestServerSession : public QObject {
    Q_OBJECT

private slots:
    void surveyLeavesTheNextPassUnchanged_data()
    {
        QTest::addColumn<QString>("prefix");
        for (const QString &prefix : ServerTestHelpers::requiredServerPrefixes())
            QTest::newRow(qPrintable(prefix)) << prefix;
    }

    void surveyLeavesTheNextPassUnchanged()
    {
        QFETCH(QString, prefix);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
        ServerProcess server(*spec);
        ServerSession session;
        const Status ready = ServerTestHelpers::startWithSession(server, session, *spec);
        QVERIFY2(ready, qPrintable(ready.error()));
        QVERIFY(session.noteIdleClients());

        // The first pass pays for what a server allocates on first use; it is not compared.
        const Outcome<long long> warmUp = passDelta(session, server, 3000);
        QVERIFY2(warmUp, qPrintable(warmUp.error()));
        Outcome<ServerSession::KeySurvey> survey = session.surveyKeys();
        QVERIFY2(survey, qPrintable(survey.error()));
        QCOMPARE(survey->keys, 3000LL);
        long long surveyed = 0;
        for (const auto &encoding : survey->encodings)
            surveyed += encoding.second;
        QCOMPARE(surveyed, 3000LL);
        QVERIFY(survey->memoryUsageBytes > 3000LL * 40);

        const Outcome<long long> afterSurvey = passDelta(session, server, 3000);
        QVERIFY2(afterSurvey, qPrintable(afterSurvey.error()));
        const Outcome<long long> withoutSurvey = passDelta(session, server, 3000);
        QVERIFY2(withoutSurvey, qPrintable(withoutSurvey.error()));
        qInfo("%s: %lld bytes after a survey, %lld without", qPrintable(spec->label), afterSurvey.value(),
              withoutSurvey.value());
        // The same commands into the same empty server: to the byte.
        QCOMPARE(afterSurvey.value(), withoutSurvey.value());
        server.stop();
    }

    // A table that is rehashing holds its old and new bucket arrays and used_memory stays flat
    // until the old one is freed: a reading that only waited for the figure to stop moving took
    // Valkey 8.0.1's 20,000 SET … EX keys sent 100 at a time at 256.8 bytes per key, against a
    // settled 250.2. The settled reading waits for no table to be rehashing.
    void settledReadingIsNotMidRehash()
    {
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(QStringLiteral("valkey-8.0.1"));
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({QStringLiteral("valkey-8.0.1")}));
        ServerProcess server(*spec);
        ServerSession session;
        const Status ready = ServerTestHelpers::startWithSession(server, session, *spec);
        QVERIFY2(ready, qPrintable(ready.error()));
        QVERIFY(session.noteIdleClients());
        const Outcome<long long> baseline = session.settledUsedMemory(3000);
        QVERIFY2(baseline, qPrintable(baseline.error()));
        const Status filled = setWithTtlInBatches(server, 20000, 100);
        QVERIFY2(filled, qPrintable(filled.error()));
        const Outcome<long long> settled = session.settledUsedMemory(3000);
        QVERIFY2(settled, qPrintable(settled.error()));
        const Outcome<ServerSession::MemoryReading> now = session.memoryReading();
        QVERIFY2(now, qPrintable(now.error()));
        QCOMPARE(now->rehashing, 0);
        // Left alone for three seconds more, the server frees nothing.
        QTest::qWait(3000);
        const Outcome<ServerSession::MemoryReading> later = session.memoryReading();
        QVERIFY2(later, qPrintable(later.error()));
        qInfo("%s: %.1f bytes per key settled, %.1f three seconds later", qPrintable(spec->label),
              double(settled.value() - baseline.value()) / 20000, double(later->used - baseline.value()) / 20000);
        QCOMPARE(settled.value(), later->used);
        QVERIFY(session.takeNotes().isEmpty());
        server.stop();
    }

    // Debian's packages link the system jemalloc, whose quantum is 16 bytes on amd64; the
    // allocator is read from the running server, as every run reads it.
    void debianPackagesAllocateWithA16ByteQuantum_data()
    {
        surveyLeavesTheNextPassUnchanged_data();
    }

    void debianPackagesAllocateWithA16ByteQuantum()
    {
        QFETCH(QString, prefix);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
        QCOMPARE(spec->origin.kind, BuildKind::DebianPackage);
        ServerProcess server(*spec);
        ServerSession session;
        const Status ready = ServerTestHelpers::startWithSession(server, session, *spec);
        QVERIFY2(ready, qPrintable(ready.error()));
        const AllocatorFacts facts = readAllocatorFacts(session.connection());
        QVERIFY2(facts.memAllocator.startsWith(QStringLiteral("jemalloc")), qPrintable(facts.memAllocator));
        QCOMPARE(facts.quantumBytes, 16);
        QCOMPARE(facts.quantumProblem, QString());
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestServerSession)
#include "tst_serversession.moc"
