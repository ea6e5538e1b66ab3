// The data check: servers that replayed the same commands must hold the same keys; a server
// that rejected writes is named from its own error counts, never from a majority vote.

#include "figures.h"

#include <QtTest>

namespace {

ServerRun serverWith(const QString &id, long long counters, long long sums)
{
    ServerRun server;
    server.id = id;
    RepeatResult repeat;
    repeat.keys = counters + sums;
    repeat.usedMemoryDelta = 100 * repeat.keys;
    repeat.byType[QStringLiteral("counter")].keys = counters;
    repeat.byType[QStringLiteral("sum")].keys = sums;
    server.repeats.push_back(repeat);
    return server;
}

} // namespace

class TestDataCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void agreeingServersPass()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-9.1.2"), 100, 50)};
        QVERIFY(Figures(bundle).dataProblems().isEmpty());
    }

    // Three servers, one with a key less and no error of its own: the counts are listed, and
    // no server is blamed because two others happen to agree.
    void aDisagreementWithoutErrorsBlamesNobody()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-8.1.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-9.1.2"), 100, 49)};
        const QStringList problems = Figures(bundle).dataProblems();
        QCOMPARE(problems.size(), 2);   // the overall count and the sum count
        QCOMPARE(problems[0], QStringLiteral("repeat 1: all keys differ between servers (valkey-8.0.1 150, valkey-8.1.1 150, "
                                             "valkey-9.1.2 149) — no server reported an error, so none is blamed (keys may "
                                             "have expired or been evicted)"));
        QVERIFY(problems[1].startsWith(QStringLiteral("repeat 1: sum keys differ between servers (valkey-8.0.1 50, valkey-8.1.1 50, valkey-9.1.2 49)")));
    }

    // Two servers, the one that rejected writes is the one with the errors, whatever the counts.
    void theServerWithErrorsIsNamed()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50), serverWith(QStringLiteral("endpoint"), 61, 50)};
        RepeatResult &failing = bundle.servers[1].repeats.front();
        failing.errors[QStringLiteral("INCRBY: OOM command not allowed when used memory > 'maxmemory'.")] = 39;
        failing.firstError = QStringLiteral("INCRBY: OOM command not allowed when used memory > 'maxmemory'.");
        const QStringList problems = Figures(bundle).dataProblems();
        QCOMPARE(problems.size(), 3);
        QCOMPARE(problems[0], QStringLiteral("endpoint rejected writes: 39 command errors the other servers did not get (first: "
                                             "INCRBY: OOM command not allowed when used memory > 'maxmemory'.)"));
        QVERIFY(problems[1].endsWith(QStringLiteral("— endpoint rejected writes")));
        QVERIFY(problems[2].endsWith(QStringLiteral("— endpoint rejected writes")));
    }

    void failedAndUnsupportedAreLeftOut()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-9.1.2"), 100, 50),
                          serverWith(QStringLiteral("valkey-8.1.1"), 3, 0)};
        bundle.servers[2].status = RunStatus::Failed;
        bundle.servers[2].repeats.front().status = RepeatStatus::Failed;
        bundle.servers[0].repeats.front().byType[QStringLiteral("sum")].status = TypeStatus::Unsupported;
        bundle.servers[0].repeats.front().byType[QStringLiteral("sum")].keys = 0;
        bundle.servers[0].repeats.front().keys = 100;
        QVERIFY2(Figures(bundle).dataProblems().isEmpty(), qPrintable(Figures(bundle).dataProblems().join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestDataCheck)
#include "tst_datacheck.moc"
