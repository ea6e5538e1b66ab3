#include "resultsstats.h"

#include <QtTest>

class TestResultsStats : public QObject {
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

    void versionsCompareNumerically()
    {
        QVERIFY(compareVersions(QStringLiteral("8.1.1"), QStringLiteral("9.1.2")) < 0);
        QVERIFY(compareVersions(QStringLiteral("10.0.0"), QStringLiteral("9.1.2")) > 0);
        QVERIFY(compareVersions(QStringLiteral("255.255.255"), QStringLiteral("9.1.2")) > 0);
        QCOMPARE(compareVersions(QStringLiteral("8.0.1"), QStringLiteral("8.0.1")), 0);
    }

    void baselineIsOldestValkey()
    {
        ResultsBundle bundle;
        auto add = [&](const char *product, const char *version) {
            ServerRun run;
            run.product = QString::fromLatin1(product);
            run.version = QString::fromLatin1(version);
            run.id = run.product + QLatin1Char('-') + run.version;
            bundle.servers.push_back(run);
        };
        add("valkey", "9.1.2");
        add("redis", "7.0.15");
        add("valkey", "8.0.1");
        add("valkey", "8.1.1");
        QCOMPARE(baselineId(bundle), QStringLiteral("valkey-8.0.1"));
        bundle.baseline = QStringLiteral("valkey-8.1.1");
        QCOMPARE(baselineId(bundle), QStringLiteral("valkey-8.1.1"));
        bundle.baseline = QStringLiteral("valkey-6.0.0");
        QCOMPARE(baselineId(bundle), QStringLiteral("valkey-8.0.1"));
    }
};

QTEST_GUILESS_MAIN(TestResultsStats)
#include "tst_resultsstats.moc"
