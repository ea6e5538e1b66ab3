// What each finished pass adds to a repeat's result, and what a reader of the run is told of it:
// the passes in their order, the combined pass's memory and timing, a type's own figures, the
// refusals and the commands a server did not know, never silent.

#include "repeatassembly.h"

#include <QtTest>

namespace {

WorkloadInfo workloadOfTypes(bool timedAlone)
{
    WorkloadInfo workload;
    workload.events = 100;
    workload.types = {QStringLiteral("counter"), QStringLiteral("hsetex")};
    workload.typesTimedAlone = timedAlone;
    return workload;
}

struct AssemblyListener {
    QStringList lines;
    QStringList progress;
    RepeatAssembly::Hooks hooks()
    {
        RepeatAssembly::Hooks hooks;
        hooks.log = [this](const QString &line) { lines << line; };
        hooks.progressMessage = [this](const QString &message) { progress << message; };
        return hooks;
    }
};

} // namespace

class RepeatAssemblyTest : public QObject {
    Q_OBJECT

private slots:
    void passesRunInTheirOrder_data()
    {
        QTest::addColumn<bool>("timedAlone");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QList<bool>>("timed");
        QTest::newRow("one timed pass, then each type's memory")
            << false << QStringList{QStringLiteral("timed pass"), QStringLiteral("memory: counter"), QStringLiteral("memory: hsetex")}
            << QList<bool>{true, false, false};
        QTest::newRow("each type timed alone")
            << true << QStringList{QStringLiteral("timed: counter"), QStringLiteral("timed: hsetex")} << QList<bool>{true, true};
    }
    void passesRunInTheirOrder()
    {
        QFETCH(bool, timedAlone);
        QFETCH(QStringList, labels);
        QFETCH(QList<bool>, timed);
        const std::vector<PassPlan> plans = RepeatAssembly::plansOf(workloadOfTypes(timedAlone));
        QCOMPARE(int(plans.size()), labels.size());
        for (int index = 0; index < labels.size(); ++index) {
            QCOMPARE(plans[size_t(index)].label, labels[index]);
            QCOMPARE(plans[size_t(index)].timed, timed[index]);
        }
        QVERIFY(plans.back().type == QLatin1String("hsetex"));
    }

    void combinedPassGivesTheRepeatsFiguresAndNamesItsRefusals()
    {
        const WorkloadInfo workload = workloadOfTypes(false);
        AssemblyListener told;
        const RepeatAssembly assembly(workload, told.hooks());
        PassMeasurement measured;
        measured.keys = 20;
        measured.usedMemoryDelta = 4000;
        measured.pass.eventsSent = 100;
        measured.pass.commands = 300;
        measured.pass.moved = 2;
        measured.pass.errors[QStringLiteral("HSET: WRONGTYPE")] = 1;
        measured.pass.firstError = QStringLiteral("HSET: WRONGTYPE");
        measured.pass.refused[QStringLiteral("EVAL")] = 3;
        measured.countedNotSent[QStringLiteral("PING")] = 1;
        RepeatResult result;
        assembly.add(RepeatAssembly::plansOf(workload).front(), measured, result);

        QCOMPARE(result.keys, 20LL);
        QCOMPARE(result.usedMemoryDelta, 4000LL);
        QCOMPARE(result.timing.events, 100LL);
        QCOMPARE(result.timing.commands, 300LL);
        QCOMPARE(result.redirects.moved, 2LL);
        QCOMPARE(result.errors[QStringLiteral("HSET: WRONGTYPE")], 1LL);
        QCOMPARE(result.firstError, QStringLiteral("HSET: WRONGTYPE"));
        QCOMPARE(result.refused[QStringLiteral("EVAL")], 3LL);
        QCOMPARE(result.countedNotSent[QStringLiteral("PING")], 1LL);
        QCOMPARE(told.lines, (QStringList{QStringLiteral("timed pass: refused, not run: EVAL 3"),
                                          QStringLiteral("timed pass: the server counted commands Versus did not send: PING 1")}));
        QVERIFY(told.progress.isEmpty());
    }

    void typeTheServerDoesNotKnowIsUnsupported()
    {
        const WorkloadInfo workload = workloadOfTypes(true);
        AssemblyListener told;
        const RepeatAssembly assembly(workload, told.hooks());
        PassMeasurement measured;
        measured.keys = 0;
        measured.pass.commands = 100;
        measured.pass.unknownCommands[QStringLiteral("HSETEX")] = 100;
        measured.pass.firstUnknownCommandError = QStringLiteral("ERR unknown command 'HSETEX'");
        RepeatResult result;
        assembly.add(RepeatAssembly::plansOf(workload).back(), measured, result);

        const TypeMemory &memory = result.byType[QStringLiteral("hsetex")];
        QCOMPARE(memory.status, TypeStatus::Unsupported);
        QCOMPARE(memory.error, QStringLiteral("ERR unknown command 'HSETEX'"));
        QVERIFY(memory.timing.has_value());   // timed alone: its timing is kept beside the refusal
        QCOMPARE(told.lines, QStringList{QStringLiteral("hsetex unsupported: ERR unknown command 'HSETEX'")});
        QCOMPARE(told.progress, QStringList{QStringLiteral("hsetex unsupported")});
        QVERIFY(result.errors.empty());   // "unknown command" is not among the errors
    }

    void typeMemoryComesFromItsOwnPass()
    {
        const WorkloadInfo workload = workloadOfTypes(false);
        AssemblyListener told;
        const RepeatAssembly assembly(workload, told.hooks());
        PassMeasurement measured;
        measured.keys = 10;
        measured.usedMemoryDelta = 2000;
        measured.survey.keys = 10;
        measured.survey.memoryUsageBytes = 900;
        RepeatResult result;
        assembly.add(RepeatAssembly::plansOf(workload)[1], measured, result);

        const TypeMemory &memory = result.byType[QStringLiteral("counter")];
        QCOMPARE(memory.status, TypeStatus::Ok);
        QCOMPARE(memory.keys, 10LL);
        QCOMPARE(memory.usedMemoryDelta, 2000LL);
        QCOMPARE(memory.memoryUsageBytesPerKey, 90.0);
        QVERIFY(!memory.timing.has_value());   // a memory pass is not timed
        QVERIFY(told.lines.isEmpty());
    }
};

QTEST_GUILESS_MAIN(RepeatAssemblyTest)
#include "tst_repeatassembly.moc"
