// When a change is news: the figures layer calls a change better or worse (the colour every view
// gives it) only when it is larger than the figure moves between runs, and the headline of a
// comparison of two bundles is the difference between them. A +0.1% difference between two
// bundles of the same servers was coloured as a regression, under a headline that was a change
// inside the first bundle.

#include "bundlebuilders.h"
#include "bundlemerge.h"
#include "figures.h"
#include "fixturebundle.h"
#include "presentation.h"

#include <QtTest>

namespace {

using BundleBuilders::withMemoryScaled;

ResultsBundle withoutServer(ResultsBundle bundle, const QString &id)
{
    bundle.servers.erase(std::remove_if(bundle.servers.begin(), bundle.servers.end(),
                                        [&id](const ServerRun &run) { return run.id == id; }),
                         bundle.servers.end());
    return bundle;
}

// real-ecommerce.json with Valkey 9.1.2's server time in repeat r that of 8.0.1 in the same
// repeat times ratios[r]: the paired change is known exactly.
ResultsBundle withPairedTimes(const std::vector<double> &ratios)
{
    ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    bundle.repeats = int(ratios.size());
    ServerRun &old = bundle.servers[0];
    ServerRun &newer = bundle.servers[1];
    old.repeats.resize(ratios.size());
    newer.repeats.resize(ratios.size());
    for (size_t r = 0; r < ratios.size(); ++r) {
        newer.repeats[r].timing = old.repeats[r].timing;
        for (auto &entry : newer.repeats[r].timing.byCommand)
            entry.second.usec = (long long)std::llround(double(entry.second.usec) * ratios[r]);
    }
    return bundle;
}

ChangeMeaning timeMeaning(const ResultsBundle &bundle)
{
    const FigureTable times = Figures(bundle).commandTime();
    return changeMeaning(times.measure, times.at(0, QStringLiteral("valkey-9.1.2")));
}

} // namespace

class TestFiguresNoise : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Repeats paired repeat by repeat say how much the change moves; a change whose pairs fall on
    // both sides of no change is not news, however large its median.
    void pairedRepeatsDecide()
    {
        QCOMPARE(timeMeaning(withPairedTimes({0.96, 0.97, 0.98})), ChangeMeaning::Better);   // −3%, every pair faster
        QCOMPARE(timeMeaning(withPairedTimes({0.90, 1.05, 0.93})), ChangeMeaning::Neutral);  // −7%, one pair slower
        QCOMPARE(timeMeaning(withPairedTimes({1.04, 1.06, 1.05})), ChangeMeaning::Worse);
    }

    // One run: a change smaller than such a figure moves between runs on this machine (server
    // time 5%, bytes per key 0.5%) is not news.
    void oneRunHasTheMachinesSpread()
    {
        QCOMPARE(timeMeaning(withPairedTimes({0.97})), ChangeMeaning::Neutral);
        QCOMPARE(timeMeaning(withPairedTimes({0.92})), ChangeMeaning::Better);
        QCOMPARE(timeMeaning(withPairedTimes({1.08})), ChangeMeaning::Worse);

        ResultsBundle memory = withPairedTimes({1.0});
        for (const auto &[factor, meaning] : {std::pair{1.003, ChangeMeaning::Neutral}, {1.01, ChangeMeaning::Worse},
                                              {0.996, ChangeMeaning::Neutral}, {0.99, ChangeMeaning::Better}}) {
            RepeatResult &newer = memory.servers[1].repeats[0];
            newer.usedMemoryDelta = std::llround(memory.servers[0].repeats[0].bytesPerKey() * factor * double(newer.keys));
            const FigureTable table = Figures(memory).memory();
            QVERIFY2(changeMeaning(table.measure, table.at(0, QStringLiteral("valkey-9.1.2"))) == meaning,
                     qPrintable(QString::number(factor)));
        }
    }

    // Two bundles of the same versions: the headline is the baseline's version from one bundle to
    // the other, its change that difference, and +0.1% of memory is within noise.
    // The answer words a change within noise as no change: "about the same time (−2.0%, within
    // noise) inside its commands", compared with "as", never "2.0% less time … than".
    void answerCallsNoiseTheSame()
    {
        const QString answer = Figures(withPairedTimes({0.98})).answer();
        QVERIFY2(answer.endsWith(QStringLiteral(" and spends about the same time (\u22122.0%, within noise) inside its commands.")),
                 qPrintable(answer));
        // Memory 0.1% apart in one run (no pairs to say otherwise): within noise, and compared with "as".
        ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
        bundle.repeats = 1;
        for (ServerRun &run : bundle.servers)
            run.repeats.resize(1);
        ServerRun &newer = bundle.servers[1];
        newer.repeats = withMemoryScaled(withoutServer(bundle, newer.id), 1.001).servers[0].repeats;
        newer.repeats.front().timing = bundle.servers[0].repeats.front().timing;
        QCOMPARE(Figures(bundle).answer(),
                 QStringLiteral("Valkey 9.1.2 stores the same attributes in about the same memory (+0.1%, within noise) as Valkey "
                                "8.0.1 and spends the same time inside its commands."));
    }

    void comparisonHeadlineIsBetweenTheBundles()
    {
        const ResultsBundle laptop = fixtureBundle("real-ecommerce.json");
        const ResultsBundle merged = mergeBundles(laptop, QStringLiteral("laptop"), withMemoryScaled(laptop, 1.001),
                                                  QStringLiteral("server"));
        const Figures figures(merged);
        const FigureTable memory = figures.memory();
        const std::optional<Headline> headline = figures.headline(memory);
        QVERIFY(headline && headline->change);
        QCOMPARE(headline->fromId, QStringLiteral("valkey-8.0.1 @ laptop"));
        QCOMPARE(headline->toId, QStringLiteral("valkey-8.0.1 @ server"));
        QCOMPARE(formatPercentChange(*headline->change), QStringLiteral("+0.1%"));
        QVERIFY(headline->acrossBundles);
        QCOMPARE(headline->meaning, ChangeMeaning::Neutral);
        QCOMPARE(changeMeaning(memory.measure, memory.at(0, headline->toId)), ChangeMeaning::Neutral);

        // The baseline picks the version; the change is still between the bundles.
        Figures::Options newest;
        newest.baseline = QStringLiteral("valkey-9.1.2 @ laptop");
        const Figures picked(merged, newest);
        const std::optional<Headline> ofNewest = picked.headline(picked.memory());
        QVERIFY(ofNewest && ofNewest->change);
        QCOMPARE(ofNewest->fromId, QStringLiteral("valkey-9.1.2 @ laptop"));
        QCOMPARE(ofNewest->toId, QStringLiteral("valkey-9.1.2 @ server"));
        QCOMPARE(formatPercentChange(*ofNewest->change), QStringLiteral("+0.1%"));

        // A baseline the other bundle did not run: the newest version both ran.
        const ResultsBundle partial = mergeBundles(laptop, QStringLiteral("laptop"),
                                                   withoutServer(withMemoryScaled(laptop, 1.05), QStringLiteral("valkey-8.0.1")),
                                                   QStringLiteral("server"));
        const Figures apart(partial);
        const FigureTable apartMemory = apart.memory();
        const std::optional<Headline> common = apart.headline(apartMemory);
        QVERIFY(common && common->change);
        QCOMPARE(common->fromId, QStringLiteral("valkey-9.1.2 @ laptop"));
        QCOMPARE(common->toId, QStringLiteral("valkey-9.1.2 @ server"));
        QCOMPARE(formatPercentChange(*common->change), QStringLiteral("+5.0%"));
        QCOMPARE(common->meaning, ChangeMeaning::Worse);   // beyond what memory moves between runs
    }
};

QTEST_GUILESS_MAIN(TestFiguresNoise)
#include "tst_figuresnoise.moc"
