#include "datacheck.h"

#include <QtTest>

namespace {

ServerRun serverWith(const QString &id, long long counters, long long sums)
{
    ServerRun server;
    server.id = id;
    RepeatResult repeat;
    repeat.keys = counters + sums;
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
        QVERIFY(dataCheckProblems(bundle).isEmpty());
    }

    void theOddServerIsNamed()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-8.1.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-9.1.2"), 100, 49)};
        const QStringList problems = dataCheckProblems(bundle);
        QCOMPARE(problems.size(), 2);   // the overall count and the sum count
        QVERIFY(problems[0].startsWith(QStringLiteral("valkey-9.1.2, repeat 1: all keys 149, other servers 150")));
        QVERIFY(problems[1].startsWith(QStringLiteral("valkey-9.1.2, repeat 1: sum keys 49, other servers 50")));
    }

    void failedAndUnsupportedAreLeftOut()
    {
        ResultsBundle bundle;
        bundle.servers = {serverWith(QStringLiteral("valkey-8.0.1"), 100, 50),
                          serverWith(QStringLiteral("valkey-9.1.2"), 100, 50),
                          serverWith(QStringLiteral("valkey-8.1.1"), 3, 0)};
        bundle.servers[2].status = QStringLiteral("failed");
        bundle.servers[0].repeats[0].byType[QStringLiteral("sum")].status = QStringLiteral("unsupported");
        bundle.servers[0].repeats[0].byType[QStringLiteral("sum")].keys = 0;
        QVERIFY(dataCheckProblems(bundle).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDataCheck)
#include "tst_datacheck.moc"
