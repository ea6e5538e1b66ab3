// What another client did during a pass on an endpoint, judged from INFO commandstats alone
// (interference.h): a timed pass from its own CONFIG RESETSTAT on, any other pass from a
// reading before and after. The end-to-end cases against a real endpoint are in
// tests/cli/tst_endpointinterference.cpp.
#include "interference.h"

#include <QtTest>

namespace {

using InterferenceStats = std::map<QString, CommandStat>;

CommandTally tallyOf(const std::vector<std::vector<std::string>> &commands)
{
    CommandTally result;
    for (const auto &command : commands)
        result.add(command);
    return result;
}

CommandTally namedCounts(const std::map<std::string, long long> &counts)
{
    CommandTally result;
    for (const auto &[name, count] : counts)
        result.addName(name, count);
    return result;
}

// Versus's own control commands of a timed pass: its RESETSTAT, its FLUSHALL SYNC, two INFOs.
CommandTally ownOfATimedPass()
{
    return tallyOf({{"CONFIG", "RESETSTAT"}, {"FLUSHALL", "SYNC"}, {"INFO", "memory"}, {"INFO", "memory"}});
}

} // namespace

class InterferenceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void timedPass_data();
    void timedPass();
    void otherPass_data();
    void otherPass();
    void messageNamesWhatWasSeen();
};

void InterferenceTest::timedPass_data()
{
    QTest::addColumn<InterferenceStats>("counted");
    QTest::addColumn<QStringList>("flushes");
    QTest::addColumn<bool>("reset");
    QTest::addColumn<QStringList>("fewer");

    const CommandStat resetstat{1, 3};
    const CommandStat flush{1, 900};
    const CommandStat info{2, 40};
    QTest::newRow("alone") << InterferenceStats{{"config|resetstat", resetstat}, {"flushall", flush}, {"info", info}, {"set", {1000, 800}}}
                           << QStringList() << false << QStringList();
    QTest::newRow("a stranger's reads and writes are not interference")
        << InterferenceStats{{"config|resetstat", resetstat}, {"flushall", flush}, {"info", info}, {"set", {1003, 800}}, {"get", {9, 5}}}
        << QStringList() << false << QStringList();
    QTest::newRow("a stranger's FLUSHALL")
        << InterferenceStats{{"config|resetstat", resetstat}, {"flushall", {2, 1800}}, {"info", info}, {"set", {1000, 800}}}
        << QStringList{QStringLiteral("FLUSHALL")} << false << QStringList();
    QTest::newRow("a stranger's FLUSHDB and SWAPDB")
        << InterferenceStats{{"config|resetstat", resetstat}, {"flushall", flush}, {"flushdb", {1, 9}}, {"swapdb", {1, 1}}, {"set", {1000, 800}}}
        << QStringList{QStringLiteral("FLUSHDB"), QStringLiteral("SWAPDB")} << false << QStringList();
    // Reset after Versus's FLUSHALL: the row lost it, and SET lost the calls made before.
    QTest::newRow("a stranger's CONFIG RESETSTAT")
        << InterferenceStats{{"config|resetstat", resetstat}, {"info", {1, 20}}, {"set", {400, 300}}}
        << QStringList() << true << QStringList{QStringLiteral("SET")};
    // Another Versus: its RESETSTAT and FLUSHALL both after ours.
    QTest::newRow("a second run's RESETSTAT and FLUSHALL")
        << InterferenceStats{{"config|resetstat", resetstat}, {"flushall", flush}, {"set", {400, 300}}}
        << QStringList() << false << QStringList{QStringLiteral("SET")};
}

void InterferenceTest::timedPass()
{
    QFETCH(InterferenceStats, counted);
    QFETCH(QStringList, flushes);
    QFETCH(bool, reset);
    QFETCH(QStringList, fewer);
    const CommandTally sent = namedCounts({{"set", 1000}, {"hsetex", 10}});
    const CommandTally errors = namedCounts({{"hsetex", 10}});   // unknown to this server: no calls counted
    const Interference found = interferenceSinceReset(counted, ownOfATimedPass(), sent, errors);
    QStringList foundFlushes;
    for (const auto &[command, count] : found.flushes)
        foundFlushes << command;
    QStringList foundFewer;
    for (const auto &[command, counts] : found.fewerCalls)
        foundFewer << command;
    QCOMPARE(foundFlushes, flushes);
    QCOMPARE(found.statsReset, reset);
    QCOMPARE(foundFewer, fewer);
    QCOMPARE(found.any(), !flushes.isEmpty() || reset || !fewer.isEmpty());
}

void InterferenceTest::otherPass_data()
{
    QTest::addColumn<InterferenceStats>("after");
    QTest::addColumn<bool>("any");

    QTest::newRow("alone") << InterferenceStats{{"flushall", {5, 10}}, {"info", {11, 40}}, {"set", {1500, 800}}} << false;
    QTest::newRow("a stranger's FLUSHALL") << InterferenceStats{{"flushall", {6, 10}}, {"info", {11, 40}}, {"set", {1500, 800}}} << true;
    QTest::newRow("counts went back") << InterferenceStats{{"flushall", {5, 10}}, {"info", {1, 1}}, {"set", {1500, 800}}} << true;
    QTest::newRow("fewer calls") << InterferenceStats{{"flushall", {5, 10}}, {"info", {11, 40}}, {"set", {1499, 800}}} << true;
}

void InterferenceTest::otherPass()
{
    QFETCH(InterferenceStats, after);
    QFETCH(bool, any);
    const InterferenceStats before{{"flushall", {5, 10}}, {"info", {10, 30}}, {"set", {500, 300}}};
    const CommandTally ownBefore = tallyOf({{"FLUSHALL", "SYNC"}});
    const CommandTally ownAfter = tallyOf({{"FLUSHALL", "SYNC"}, {"INFO", "commandstats"}});
    const Interference found = interferenceBetween(before, after, ownBefore, ownAfter, namedCounts({{"set", 1000}}), CommandTally());
    QCOMPARE(found.any(), any);
}

void InterferenceTest::messageNamesWhatWasSeen()
{
    Interference found;
    found.flushes[QStringLiteral("FLUSHALL")] = 1;
    found.statsReset = true;
    found.fewerCalls[QStringLiteral("HSET")] = Interference::Fewer{7613, 20000};
    QCOMPARE(found.describe(QStringLiteral("timed pass"), 7613),
             QStringLiteral("another client interfered with the pass timed pass (FLUSHALL 1 sent by another client: keys "
                            "deleted; statistics reset by another client (CONFIG RESETSTAT); calls fewer than sent: HSET 7613 "
                            "of 20000); 7613 keys after it. Its memory and µs are not the workload's alone: run one Versus "
                            "at a time on an endpoint, with no other client flushing it or resetting its statistics"));
}

QTEST_GUILESS_MAIN(InterferenceTest)

#include "tst_interference.moc"
