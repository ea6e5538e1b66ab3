#include "statistics.h"

#include <QtTest>

class TestStatistics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void medianOddAndEven_data()
    {
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("one") << QVector<double>{4.0} << 4.0 << 4.0 << 4.0;
        QTest::newRow("odd") << QVector<double>{3.0, 1.0, 2.0} << 2.0 << 1.0 << 3.0;
        QTest::newRow("even") << QVector<double>{4.0, 1.0, 2.0, 3.0} << 2.5 << 1.0 << 4.0;
    }
    void medianOddAndEven()
    {
        QFETCH(QVector<double>, values);
        const Spread spread = spreadOf(std::vector<double>(values.begin(), values.end()));
        QFETCH(double, median);
        QFETCH(double, min);
        QFETCH(double, max);
        QCOMPARE(spread.median, median);
        QCOMPARE(spread.min, min);
        QCOMPARE(spread.max, max);
    }

    void intervalOnlyFromFive()
    {
        const Spread four = spreadOf({1, 2, 3, 4});
        QVERIFY(!four.hasInterval());
        const Spread five = spreadOf({10, 10, 10, 10, 10});
        QVERIFY(five.hasInterval());
        QCOMPARE(five.ciLow, 10.0);
        QCOMPARE(five.ciHigh, 10.0);
        // mean 3, sd sqrt(2.5), t(4)=2.776: half width 2.776*sqrt(2.5/5)=1.962929
        const Spread spread = spreadOf({1, 2, 3, 4, 5});
        QVERIFY(qAbs(spread.ciLow - (3 - 1.962929)) < 1e-5);
        QVERIFY(qAbs(spread.ciHigh - (3 + 1.962929)) < 1e-5);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
