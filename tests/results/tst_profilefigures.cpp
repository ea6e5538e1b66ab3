// --profile's folding and figures: perf script's text of real profile passes (tests/fixtures/perf,
// upstream Valkey 8.0.1 with symbols and Debian's stripped 8.0.1, each under the same HSET load)
// folded into exact categories and counts, the symbol status measured from the samples, the
// bundle's profile kept and hostile values refused naming the field, and the figures layer's
// shares and sentence. Nothing is measured here.

#include "bundlejson.h"
#include "figures.h"
#include "figureviews.h"
#include "fixturebundle.h"
#include "jsonsupport.h"
#include "profilemarkdown.h"
#include "reportmarkdown.h"
#include "categoryorder.h"
#include "serverprofile.h"

#include <QFile>
#include <QtTest>

namespace {

QString perfFixture(const QString &name)
{
    QFile file(QStringLiteral(VERSUS_FIXTURES "/perf/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(file.readAll());
}

long long samplesIn(const ServerProfile &profile, ProfileCategory category)
{
    const auto found = profile.samples.find(category);
    return found == profile.samples.end() ? 0 : found->second;
}

// The fixture bundle's two servers, each with a profile: 8.0.1 with 100 samples, 9.1.2 with 200.
ResultsBundle profiledBundle()
{
    ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    ServerProfile &old = bundle.servers[0].profile;
    old.samples = {{ProfileCategory::Networking, 22}, {ProfileCategory::HashTable, 40}, {ProfileCategory::Other, 38}};
    old.totalSamples = 100;
    old.binarySamples = 70;
    old.binaryNamed = 70;
    old.rateHz = 499;
    old.binaryName = QStringLiteral("valkey-server");
    ServerProfile &newer = bundle.servers[1].profile;
    newer.samples = {{ProfileCategory::Networking, 62}, {ProfileCategory::HashTable, 80}, {ProfileCategory::Unnamed, 58}};
    newer.totalSamples = 200;
    newer.binarySamples = 130;
    newer.binaryNamed = 72;
    newer.rateHz = 499;
    newer.binaryName = QStringLiteral("valkey-server");
    return bundle;
}

} // namespace

class TestProfileFigures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void foldsUpstreamBuildWithSymbols()
    {
        const QString text = perfFixture(QStringLiteral("valkey-8.0.1-upstream.txt"));
        QVERIFY(!text.isEmpty());
        const ServerProfile profile = foldPerfSamples(text, QStringLiteral("valkey-server"));
        QCOMPARE(profile.totalSamples, 51);
        QCOMPARE(profile.binarySamples, 35);
        QCOMPARE(profile.binaryNamed, 35);
        QCOMPARE(profile.symbolStatus(), QStringLiteral("symbols"));
        const std::map<ProfileCategory, long long> expected{
            // dictFind 9, rehashEntriesInBucketAtIndex 7, siphash 2, dictFindPositionForInsert 1
            {ProfileCategory::HashTable, 19},
            // je_malloc_usable_size 4, zmalloc, je_sdallocx, do_rallocx; the kernel's page clearing
            // 2, cgroup charging 2 and TLB flush
            {ProfileCategory::Allocation, 12},
            // the kernel's other 5 (epoll_wait, returns to user mode …), gettimeofday 2, write
            {ProfileCategory::Networking, 8},
            {ProfileCategory::ReplyWriting, 2},     // addReply
            {ProfileCategory::RequestParsing, 1},   // processMultibulkBuffer
            // decrRefCount 2, lpInsert, hsetCommand, createEmbeddedStringObject, ACLCheckAllUserCommandPerm
            {ProfileCategory::CommandExecution, 6},
            {ProfileCategory::Other, 3},            // libc's strcasecmp 2 and strlen
        };
        QCOMPARE(profile.samples, expected);
        QCOMPARE(profile.problem(), QString());
    }

    void foldsDebianStrippedBuildByLibrary()
    {
        const ServerProfile profile = foldPerfSamples(perfFixture(QStringLiteral("valkey-8.0.1-debian.txt")),
                                                      QStringLiteral("valkey-server"));
        QCOMPARE(profile.totalSamples, 102);
        // Debian's binary keeps its exported names: the static ones it stripped fold by library.
        QCOMPARE(samplesIn(profile, ProfileCategory::Unnamed), 8);
        QCOMPARE(profile.binaryNamed, profile.binarySamples - 8);
        QVERIFY2(profile.symbolStatus().startsWith(QStringLiteral("partly stripped")), qPrintable(profile.symbolStatus()));
        QCOMPARE(profile.unnamedLabel(), QStringLiteral("valkey-server, no symbols"));
        long long sum = 0;
        for (const auto &entry : profile.samples)
            sum += entry.second;
        QCOMPARE(sum, profile.totalSamples);
    }

    void eachRuleFoldsItsSymbols_data()
    {
        QTest::addColumn<QString>("symbol");
        QTest::addColumn<QString>("dso");
        QTest::addColumn<int>("category");
        const QString server = QStringLiteral("/cache/bin/valkey-server");
        const QString kernel = QStringLiteral("[kernel.kallsyms]");
        QTest::newRow("command") << "hsetCommand" << server << int(ProfileCategory::CommandExecution);
        QTest::newRow("listpack") << "lpInsertString" << server << int(ProfileCategory::CommandExecution);
        QTest::newRow("dict") << "dictFind" << server << int(ProfileCategory::HashTable);
        QTest::newRow("rehash") << "rehashEntriesInBucketAtIndex.lto_priv.0" << server << int(ProfileCategory::HashTable);
        QTest::newRow("hashtable") << "hashtableFind" << server << int(ProfileCategory::HashTable);
        QTest::newRow("jemalloc") << "je_malloc_usable_size" << server << int(ProfileCategory::Allocation);
        QTest::newRow("zmalloc") << "zmalloc" << server << int(ProfileCategory::Allocation);
        QTest::newRow("page clearing") << "clear_page_erms" << kernel << int(ProfileCategory::Allocation);
        QTest::newRow("epoll") << "__x64_sys_epoll_wait" << kernel << int(ProfileCategory::Networking);
        QTest::newRow("libc write") << "__GI___libc_write" << "/lib/libc.so.6" << int(ProfileCategory::Networking);
        QTest::newRow("vdso") << "__vdso_gettimeofday" << "[vdso]" << int(ProfileCategory::Networking);
        QTest::newRow("parsing") << "processMultibulkBuffer" << server << int(ProfileCategory::RequestParsing);
        QTest::newRow("reply") << "addReplyBulk" << server << int(ProfileCategory::ReplyWriting);
        QTest::newRow("write to client") << "_writeToClient" << server << int(ProfileCategory::ReplyWriting);
        QTest::newRow("expiry") << "activeExpireCycle" << server << int(ProfileCategory::Expiry);
        QTest::newRow("unnamed in server") << "[unknown]" << server << int(ProfileCategory::Unnamed);
        QTest::newRow("unnamed in jemalloc") << "[unknown]" << "/cache/lib/libjemalloc.so.2" << int(ProfileCategory::Allocation);
        QTest::newRow("unnamed in libc") << "[unknown]" << "/lib/libc.so.6" << int(ProfileCategory::Other);
        QTest::newRow("other") << "serverCron" << server << int(ProfileCategory::Other);
    }

    void eachRuleFoldsItsSymbols()
    {
        QFETCH(QString, symbol);
        QFETCH(QString, dso);
        QFETCH(int, category);
        QCOMPARE(int(categoryOfSample(symbol, dso, QStringLiteral("valkey-server"))), category);
    }

    void linesThatAreNoSampleAreSkipped()
    {
        const QString text = QStringLiteral("Warning: kernel symbols restricted\n\n  not-hex dictFind (/x/valkey-server)\n"
                                            "   55779dc1952d dictFind (/x/valkey-server)\n");
        const ServerProfile profile = foldPerfSamples(text, QStringLiteral("valkey-server"));
        QCOMPARE(profile.totalSamples, 1);
        QCOMPARE(samplesIn(profile, ProfileCategory::HashTable), 1);
    }

    void bundleKeepsTheProfile()
    {
        const ResultsBundle bundle = profiledBundle();
        const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("profile.json"));
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        const ServerProfile &kept = read->servers[1].profile;
        QCOMPARE(kept.samples, bundle.servers[1].profile.samples);
        QCOMPARE(kept.totalSamples, 200);
        QCOMPARE(kept.binaryNamed, 72);
        QCOMPARE(kept.rateHz, 499);
        QCOMPARE(kept.binaryName, QStringLiteral("valkey-server"));

        ResultsBundle refused = fixtureBundle("real-ecommerce.json");
        refused.servers[0].profile.unavailable = QStringLiteral("--profile: perf is not installed");
        const Outcome<ResultsBundle> reason = bundleFromJson(bundleToJson(refused), QStringLiteral("refused.json"));
        QVERIFY(reason);
        QCOMPARE(reason->servers[0].profile.unavailable, QStringLiteral("--profile: perf is not installed"));
        QVERIFY(reason->servers[1].profile.empty());   // no profile member: as a bundle from before --profile
    }

    void hostileProfilesAreRefusedNamingTheField_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("negative count") << "samples" << R"({"hash-table": -5})" << "samples.hash-table is negative";
        QTest::newRow("huge count") << "samples" << R"({"hash-table": 18446744073709551615})" << "samples.hash-table passes 2^63";
        QTest::newRow("fractional") << "total_samples" << "2.5" << "total_samples is number";
        QTest::newRow("unknown category") << "samples" << R"({"gpu": 3})" << "unknown category \"gpu\"";
        QTest::newRow("not adding up") << "total_samples" << "7" << "where the total is 7";
        QTest::newRow("named beyond binary") << "binary_named" << "190" << "190 named of 130";
        QTest::newRow("rate") << "rate_hz" << "99999999999" << "rate_hz";
    }

    void hostileProfilesAreRefusedNamingTheField()
    {
        QFETCH(QString, member);
        QFETCH(QString, value);
        QFETCH(QString, says);
        Json json = parseJson(bundleToJson(profiledBundle()), QStringLiteral("profile.json")).value();
        json["servers"][1]["profile"][member.toStdString()] = parseJson(value.toUtf8(), QStringLiteral("value")).value();
        const Outcome<ResultsBundle> bad = bundleFromJson(QByteArray::fromStdString(json.dump()), QStringLiteral("hostile.json"));
        QVERIFY(!bad);
        QVERIFY2(bad.error().contains(QStringLiteral("profile")) && bad.error().contains(says), qPrintable(bad.error()));
    }

    void sharesAndTheBiggestDifference()
    {
        const ResultsBundle bundle = profiledBundle();
        const Figures figures(bundle);
        const FigureTable shares = figures.profileShares();
        QCOMPARE(shares.measure, Measure::ProfileSharePercent);
        const QString old = bundle.servers[0].id, newer = bundle.servers[1].id;
        QCOMPARE(shares.at(shares.categoryIndex(QStringLiteral("hash-table")), old).value, 40.0);
        QCOMPARE(shares.at(shares.categoryIndex(QStringLiteral("networking")), newer).value, 31.0);
        QCOMPARE(shares.at(shares.categoryIndex(QStringLiteral("unnamed")), old).value, 0.0);
        QCOMPARE(shares.categories[size_t(shares.categoryIndex(QStringLiteral("unnamed")))].label,
                 QStringLiteral("valkey-server, no symbols"));
        QVERIFY(!shares.at(0, newer).change);
        // The biggest gap of a named category (other's 38% against 0% is bigger, but says nothing).
        const QString sentence = figures.profileSentence();
        QVERIFY2(sentence.contains(QStringLiteral("spends 31% of its samples in networking and system calls against 22% for")),
                 qPrintable(sentence));
        QVERIFY2(sentence.contains(QStringLiteral("(partly stripped: 55% of its samples named) spends")), qPrintable(sentence));
        const std::vector<ChartKind> kinds = chartKindsOf(figures);
        QVERIFY(std::find(kinds.begin(), kinds.end(), ChartKind::Profile) != kinds.end());
        QVERIFY2(profileSummary(figures).contains(QStringLiteral("200 samples at 499 Hz")), qPrintable(profileSummary(figures)));
        // report.md: the shares, the sentence and each build's samples; no ratios to the baseline.
        const QString report = reportMarkdown(figures, {}, CategoryOrder::Workload);
        const qsizetype section = report.indexOf(QStringLiteral("\n## Profile: where the server's CPU goes"));
        QVERIFY2(section > 0, qPrintable(report));
        const QString profileSection = report.mid(section, report.indexOf(QStringLiteral("\n## "), section + 1) - section);
        QVERIFY2(profileSection.contains(QStringLiteral("| networking and system calls | 22.0 | 31.0 |")), qPrintable(profileSection));
        QVERIFY2(profileSection.contains(sentence), qPrintable(profileSection));
        QVERIFY2(!profileSection.contains(QStringLiteral("Against ")), qPrintable(profileSection));
    }

    void noProfileNoView()
    {
        const ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
        const Figures figures(bundle);
        const std::vector<ChartKind> kinds = chartKindsOf(figures);
        QVERIFY(std::find(kinds.begin(), kinds.end(), ChartKind::Profile) == kinds.end());
        QVERIFY(figures.profileShares().categories.empty());
        QVERIFY(figures.profileSentence().isEmpty());
        QVERIFY(profileSummary(figures).isEmpty());
        QVERIFY(figureView(ChartKind::Profile).whenAbsent.contains(QStringLiteral("--profile")));
    }
};

QTEST_GUILESS_MAIN(TestProfileFigures)
#include "tst_profilefigures.moc"
