// The --self-check series in a bundle: it survives a round trip, the figures layer measures the
// floor from its paired repeats with the noise rule's statistics and records it in the bundle,
// every time view quotes it, and it is never taken for a version (baseline, headline, answer).

#include "bundlejson.h"
#include "figures.h"
#include "fixturebundle.h"
#include "jsonsupport.h"

#include <QtTest>
#include <cmath>

namespace {

// real-ecommerce.json (Valkey 8.0.1 and 9.1.2) with `repeats` repeats and a self-check copy of
// `ofId` whose time inside every command in repeat r is the original's times ratios[r].
ResultsBundle withSelfCheckOf(const QString &ofId, const std::vector<double> &ratios)
{
    ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    bundle.repeats = int(ratios.size());
    for (ServerRun &run : bundle.servers)
        run.repeats.resize(ratios.size());
    ServerRun copy = *bundle.server(ofId);
    copy.id = ofId + QStringLiteral("-self-check");
    copy.selfCheck = true;
    for (size_t r = 0; r < ratios.size(); ++r) {
        for (auto &entry : copy.repeats[r].timing.byCommand)
            entry.second.usec = (long long)std::llround(double(entry.second.usec) * ratios[r]);
    }
    // First, where a tie between two runs of one version goes to the one met first.
    bundle.servers.insert(bundle.servers.begin(), copy);
    return bundle;
}

// The ratios the figures layer pairs: the copy's total µs per call over the original's.
std::vector<double> selfCheckRatiosOf(const Figures &figures, const QString &ofId)
{
    const FigureTable times = figures.commandTime();
    const Figure &copy = times.at(0, ofId + QStringLiteral("-self-check"));
    const Figure &original = times.at(0, ofId);
    std::vector<double> ratios;
    for (const auto &[repeat, value] : copy.byRepeat)
        ratios.push_back(value / original.byRepeat.at(repeat));
    return ratios;
}

} // namespace

class SelfCheckFiguresTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Written and read back: only the copy carries the flag, and the derived section records
    // the floor the figures layer measured.
    void seriesAndFloorRoundTrip()
    {
        const ResultsBundle bundle = withSelfCheckOf(QStringLiteral("valkey-8.0.1"), {1.01, 0.98, 1.02});
        const QByteArray json = bundleToJson(bundle);
        const Outcome<ResultsBundle> loaded = bundleFromJson(json, QStringLiteral("self-check.json"));
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error()));
        QVERIFY(loaded->server(QStringLiteral("valkey-8.0.1-self-check"))->selfCheck);
        QVERIFY(!loaded->server(QStringLiteral("valkey-8.0.1"))->selfCheck);
        QVERIFY(!loaded->server(QStringLiteral("valkey-9.1.2"))->selfCheck);
        QCOMPARE(bundleToJson(loaded.value()), json);

        const Figures figures(loaded.value());
        const ChangeTest expected = pairedChangeTest(selfCheckRatiosOf(figures, QStringLiteral("valkey-8.0.1")));
        QVERIFY(expected.detectablePercent);
        const Json root = Json::parse(json.toStdString());
        const Json &check = root.at("self_check");
        QCOMPARE(check.at("server").get<std::string>(), std::string("valkey-8.0.1-self-check"));
        QCOMPARE(check.at("of").get<std::string>(), std::string("valkey-8.0.1"));
        QCOMPARE(check.at("repeats").get<int>(), 3);
        QCOMPARE(check.at("floor_percent").get<double>(), *expected.detectablePercent);
        QCOMPARE(check.at("change_percent").get<double>(), expected.percent());
        QCOMPARE(check.at("resolved").get<bool>(), false);
        QCOMPARE(QString::fromStdString(check.at("sentence").get<std::string>()), figures.selfCheckSentence());
        // Without a self-check series the section is null.
        QVERIFY(Json::parse(bundleToJson(fixtureBundle("real-ecommerce.json")).toStdString()).at("self_check").is_null());
    }

    // A copy of the oldest version is no baseline, and a copy of the newest no headline: the
    // answer reads as it does without it, and carries the floor beside it.
    void selfCheckIsNeverAVersion_data()
    {
        QTest::addColumn<QString>("ofId");
        QTest::newRow("copy of the baseline") << QStringLiteral("valkey-8.0.1");
        QTest::newRow("copy of the newest") << QStringLiteral("valkey-9.1.2");
    }

    void selfCheckIsNeverAVersion()
    {
        QFETCH(QString, ofId);
        const ResultsBundle bundle = withSelfCheckOf(ofId, {1.01, 0.98, 1.02});
        ResultsBundle without = bundle;
        without.servers.erase(without.servers.begin());
        const Figures figures(bundle), plain(without);
        QCOMPARE(figures.baselineId(), QStringLiteral("valkey-8.0.1"));
        QCOMPARE(figures.comparedVersionIds(), (QStringList{QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-9.1.2")}));
        for (const FigureTable &table : {figures.memory(), figures.commandTime()}) {
            const std::optional<Headline> headline = figures.headline(table);
            QVERIFY(headline);
            QCOMPARE(headline->fromId, QStringLiteral("valkey-8.0.1"));
            QCOMPARE(headline->toId, QStringLiteral("valkey-9.1.2"));
        }
        QCOMPARE(figures.answer(), plain.answer());
        const QString copyName = figures.summary(ofId + QStringLiteral("-self-check")).name;
        QCOMPARE(copyName, figures.summary(ofId).name + QStringLiteral(" (self-check)"));
        const QString sentence = figures.selfCheckSentence();
        QVERIFY2(sentence.startsWith(QStringLiteral("Self-check: %1 run twice, on two servers, differed by ")
                                         .arg(figures.summary(ofId).name)),
                 qPrintable(sentence));
        QVERIFY2(figures.noiseNote().endsWith(sentence), qPrintable(figures.noiseNote()));
        QVERIFY2(figures.buildCaveat(CaveatOf::Time).contains(sentence), qPrintable(figures.buildCaveat(CaveatOf::Time)));
        QVERIFY(!figures.buildCaveat(CaveatOf::Memory).contains(sentence));
    }

    // When the server it repeats failed, the copy does not stand in for its version.
    void copyOfAFailedServerIsNoHeadline()
    {
        ResultsBundle bundle = withSelfCheckOf(QStringLiteral("valkey-9.1.2"), {1.01, 0.98, 1.02});
        changeServerRun(bundle, QStringLiteral("valkey-9.1.2"), [](ServerRun &run) {
            run.status = RunStatus::Failed;
            run.error = QStringLiteral("valkey-9.1.2 exited with code 1");
            run.repeats.clear();
        });
        const Figures figures(bundle);
        QVERIFY(figures.comparedServerIds().contains(QStringLiteral("valkey-9.1.2-self-check")));
        QVERIFY(!figures.headline(figures.memory()));
        QVERIFY(!figures.headline(figures.commandTime()));
        QVERIFY2(!figures.answer().contains(QLatin1String("self-check")), qPrintable(figures.answer()));
        QVERIFY(!figures.selfCheck());
    }

    // One repeat has no spread: the single-run line quotes the one A/A difference and no floor.
    // (Without a self-check it says none ran and how to get one: tst_figuresnoise.)
    void singleRunLineQuotesTheSelfCheck()
    {
        const Figures figures(withSelfCheckOf(QStringLiteral("valkey-9.1.2"), {1.03}));
        QVERIFY(figures.selfCheck());
        QVERIFY(!figures.selfCheck()->floorPercent());
        QCOMPARE(figures.noiseNote(),
                 QStringLiteral("One run: no spread is known with one repeat, so its time figures carry no interval and resolve "
                                "no change; repeat with --repeat 5 for both. Self-check: Valkey 9.1.2 run twice, on two "
                                "servers, differed by +3.0% in time per command inside the commands; with one repeat that is "
                                "one sample of this machine's noise, not a floor (repeat with --repeat 5 for one)."));
    }
};

QTEST_GUILESS_MAIN(SelfCheckFiguresTest)
#include "tst_selfcheckfigures.moc"
