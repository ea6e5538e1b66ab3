// What a progress row says a server waits for: the pass in words, as a sentence needs it.

#include "passrunner.h"

#include <QtTest>

class PassPlanTest : public QObject {
    Q_OBJECT

private slots:
    void passIsNamedInWords_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("timed");
        QTest::addColumn<QString>("noun");
        QTest::newRow("the combined timed pass") << QString() << true << QStringLiteral("the timed pass");
        QTest::newRow("hash-ttl's pattern") << QStringLiteral("hsetex") << true << QStringLiteral("the timed pass of hsetex");
        QTest::newRow("an attribute's memory") << QStringLiteral("counter") << false << QStringLiteral("the memory pass of counter");
    }
    void passIsNamedInWords()
    {
        QFETCH(QString, type);
        QFETCH(bool, timed);
        QFETCH(QString, noun);
        const PassPlan plan{type, timed, timed ? QStringLiteral("timed: ") + type : QStringLiteral("memory: ") + type};
        QCOMPARE(plan.noun(), noun);
        // Before: the label, "for the other servers to finish timed: hsetex".
        QVERIFY(!plan.noun().contains(QLatin1Char(':')));
    }
};

QTEST_GUILESS_MAIN(PassPlanTest)
#include "tst_passplan.moc"
