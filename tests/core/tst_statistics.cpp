#include "seededrandom.h"
#include "statistics.h"

#include <QtTest>
#include <cmath>

namespace {

// A standard normal variate (Box–Muller), from the seeded generator: the same numbers everywhere.
double normal(SeededRandom &random)
{
    const double u = 1.0 - random.unit();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * random.unit());
}

// How a repeat's µs per command moves when nothing changed between the two servers: the
// machine's drift, shared by both servers of one repeat (the fair schedule interleaves them),
// and each server's own noise of 3%: normal (log-normal factors), heavy-tailed (Student's t
// with 3 degrees of freedom), or normal with another process now and then slowing one
// measurement by up to 30% (the loaded machine's outliers). The t-test does not depend on the
// spread's size, only on its shape.
enum class NoiseShape { Normal, HeavyTailed, Spikes };

double ownNoise(SeededRandom &random, NoiseShape shape)
{
    if (shape != NoiseShape::HeavyTailed)
        return 0.03 * normal(random);
    double chiSquare = 0;
    for (int i = 0; i < 3; ++i)
        chiSquare += std::pow(normal(random), 2);
    return 0.03 * normal(random) / std::sqrt(chiSquare / 3.0);
}

// The share of `runs` simulated runs of `repeats` paired repeats with no change at all in which
// the paired test says there is one.
double falsePositiveRate(int repeats, NoiseShape shape, int runs, std::uint64_t seed)
{
    SeededRandom random(seed);
    int stated = 0;
    for (int run = 0; run < runs; ++run) {
        std::vector<double> ratios;
        for (int r = 0; r < repeats; ++r) {
            const double drift = 0.05 * normal(random);
            double times[2];
            for (double &time : times) {
                time = std::exp(drift + ownNoise(random, shape));
                if (shape == NoiseShape::Spikes && random.chance(0.1))
                    time *= 1.0 + 0.3 * random.unit();
            }
            ratios.push_back(times[1] / times[0]);
        }
        stated += pairedChangeTest(ratios).resolved ? 1 : 0;
    }
    return double(stated) / double(runs);
}

} // namespace

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
        // mean 3, sd sqrt(2.5), t(4)=2.776445: half width 2.776445*sqrt(2.5/5)=1.963244
        const Spread spread = spreadOf({1, 2, 3, 4, 5});
        QVERIFY(qAbs(spread.ciLow - (3 - 1.963244)) < 1e-5);
        QVERIFY(qAbs(spread.ciHigh - (3 + 1.963244)) < 1e-5);
    }

    // Against published quantiles of Student's t (to the digits the tables give).
    void studentQuantiles_data()
    {
        QTest::addColumn<double>("probability");
        QTest::addColumn<double>("freedom");
        QTest::addColumn<double>("quantile");
        QTest::newRow("97.5%, 1") << 0.975 << 1.0 << 12.7062;
        QTest::newRow("97.5%, 2") << 0.975 << 2.0 << 4.3027;
        QTest::newRow("97.5%, 4") << 0.975 << 4.0 << 2.7764;
        QTest::newRow("97.5%, 30") << 0.975 << 30.0 << 2.0423;
        QTest::newRow("97.5%, 1000") << 0.975 << 1000.0 << 1.9623;
        QTest::newRow("80%, 1") << 0.80 << 1.0 << 1.3764;
        QTest::newRow("80%, 4") << 0.80 << 4.0 << 0.9410;
        QTest::newRow("99.5%, 3") << 0.995 << 3.0 << 5.8409;
        QTest::newRow("2.5%, 2") << 0.025 << 2.0 << -4.3027;
        QTest::newRow("97.5%, 2.5") << 0.975 << 2.5 << 3.5747;   // Welch's fractional freedom
    }
    void studentQuantiles()
    {
        QFETCH(double, probability);
        QFETCH(double, freedom);
        QFETCH(double, quantile);
        const double t = studentTQuantile(probability, freedom);
        QVERIFY2(qAbs(t - quantile) < 5e-4, qPrintable(QString::number(t, 'f', 6)));
        QVERIFY(qAbs(studentTCdf(t, freedom) - probability) < 1e-9);
    }

    // Two pairs that agree closely resolve a change; two that disagree do not, and the test
    // says what this run could have detected and how many repeats would resolve what it saw.
    void pairedDecisions()
    {
        // ln 0.72 and ln 0.74: mean −0.3148, se 0.01370, t = 22.97 > 12.706.
        const ChangeTest gain = pairedChangeTest({0.72, 0.74});
        QVERIFY(gain.resolved);
        QCOMPARE(gain.repeats, 2);
        QVERIFY(!gain.repeatsToResolve);
        QVERIFY(qAbs(gain.percent() - (std::sqrt(0.72 * 0.74) - 1) * 100) < 1e-9);

        // The noise: 0.95 and 0.98, both below 1, yet t = 2.04 with 1 degree of freedom.
        const ChangeTest noise = pairedChangeTest({0.95, 0.98});
        QVERIFY(!noise.resolved);
        QVERIFY(noise.spreadKnown());
        // se = |ln 0.98 − ln 0.95| / 2 = 0.015546; (12.7062 + 1.3764) × se = 0.21893 → +24.47%.
        QVERIFY2(noise.detectablePercent && qAbs(*noise.detectablePercent - 24.47) < 0.01,
                 qPrintable(QString::number(noise.detectablePercent.value_or(-1))));
        // Per-pair sd 0.021984, change 0.035748: the first n with (t(.975) + t(.80)) sd / √n ≤ 0.035748.
        QVERIFY(noise.repeatsToResolve);
        const int n = *noise.repeatsToResolve;
        const auto detectable = [](int k) {
            return (studentTQuantile(0.975, k - 1) + studentTQuantile(0.80, k - 1)) * 0.021984 / std::sqrt(double(k));
        };
        QVERIFY2(detectable(n) <= 0.035748 && detectable(n - 1) > 0.035748, qPrintable(QString::number(n)));

        // One pair: no spread, nothing resolved, nothing advised.
        const ChangeTest one = pairedChangeTest({0.7});
        QVERIFY(!one.resolved);
        QVERIFY(!one.spreadKnown());
        QVERIFY(!one.detectablePercent);
        QVERIFY(!one.repeatsToResolve);

        // A change far below the spread would need more repeats than anyone would run.
        const ChangeTest tiny = pairedChangeTest({0.9, 1.1, 0.999});
        QVERIFY(!tiny.resolved);
        QVERIFY(tiny.repeatsBeyondAdvice);
    }

    // Two runs (repeats that do not pair): Welch's test over the two series.
    void unpairedDecisions()
    {
        QVERIFY(unpairedChangeTest({0.70, 0.71, 0.72}, {1.00, 1.01, 0.99}).resolved);
        QVERIFY(!unpairedChangeTest({0.95, 1.05}, {1.00, 1.02}).resolved);
        const ChangeTest alone = unpairedChangeTest({0.7}, {1.0, 1.01});
        QVERIFY(!alone.resolved);
        QVERIFY(!alone.spreadKnown());
        QCOMPARE(alone.repeats, 1);
        QCOMPARE(alone.otherRepeats, 2);
    }

    // The rule's false-positive rate over runs where nothing changed, 10,000 simulated runs of
    // 2, 3 and 5 repeats (docs/MEASUREMENT.md, "Noise"): at most 5%, plus 0.7 points for the
    // simulation's own error (about 3 standard errors at 10,000). "Every pair on one side of no
    // change", the rule before it, states a change in half of them at 2 repeats.
    void falsePositivesAtMostFivePercent_data()
    {
        QTest::addColumn<int>("repeats");
        QTest::addColumn<int>("shape");
        for (const int repeats : {2, 3, 5}) {
            QTest::addRow("%d repeats, normal", repeats) << repeats << int(NoiseShape::Normal);
            QTest::addRow("%d repeats, heavy-tailed", repeats) << repeats << int(NoiseShape::HeavyTailed);
            QTest::addRow("%d repeats, spikes", repeats) << repeats << int(NoiseShape::Spikes);
        }
    }
    void falsePositivesAtMostFivePercent()
    {
        QFETCH(int, repeats);
        QFETCH(int, shape);
        const double rate = falsePositiveRate(repeats, NoiseShape(shape), 10000, 43);
        qInfo("%s: %.2f%% of runs with no change stated one", QTest::currentDataTag(), rate * 100);
        QVERIFY2(rate <= 0.057, qPrintable(QString::number(rate)));
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
