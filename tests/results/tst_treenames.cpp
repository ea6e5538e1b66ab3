// A source tree beside a release of its version: named as `git describe --dirty` and cargo name
// a checkout (branch or folder, short sha or content hash, -dirty) by every view, and measured
// against the release, whatever the order the servers were given in. The Why sentence calls
// two builds one source only when their source hashes match, and when a tree's source differs
// it names the part that moved (real-why-builds.json: Valkey 8.0.1 as Debian's package and as
// the upstream build of its tarball, and 9.1.2).

#include "bundlemarkdown.h"
#include "figures.h"
#include "fixturebundle.h"
#include "memoryexplanation.h"
#include "presentation.h"
#include "provenance.h"
#include "reportmarkdown.h"

#include "bundlebuilders.h"

#include <QtTest>

using namespace BundleBuilders;

Q_DECLARE_METATYPE(BuildOrigin)

namespace {

// A tree at /home/dev/valkey on branch one-pointer, with a change of its own.
BuildOrigin dirtyGitTree()
{
    BuildOrigin origin;
    origin.kind = BuildKind::UpstreamBuild;
    origin.source = QStringLiteral("/home/dev/valkey");
    origin.sourceSha256 = QStringLiteral("5425cd4d677131147154877b81123f66c68ea28ce4feb144d26452d1df7b05e8");
    origin.gitSha = QStringLiteral("1a2b3c4d5e6f708192a3b4c5d6e7f80912345678");
    origin.gitBranch = QStringLiteral("one-pointer");
    origin.dirty = true;
    return origin;
}

// Valkey 8.0.1 as a run records it: `origin`, one pass of 1,000 keys of `bytesPerKey`.
ServerRun valkey801(const QString &id, const BuildOrigin &origin, double bytesPerKey)
{
    ServerRun run;
    run.id = id;
    run.product = QStringLiteral("valkey");
    run.version = QStringLiteral("8.0.1");
    run.origin = origin;
    RepeatResult repeat;
    repeat.keys = 1000;
    repeat.usedMemoryDelta = (long long)(1000 * bytesPerKey);
    repeat.byType[QStringLiteral("counter")] = typeMemory(1000, bytesPerKey);
    run.repeats.push_back(repeat);
    return run;
}

BuildOrigin releaseBuild()
{
    BuildOrigin origin;
    origin.kind = BuildKind::UpstreamBuild;
    origin.source = QStringLiteral("valkey-8.0.1.tar.gz");
    origin.sourceSha256 = QStringLiteral("bccb382a0f583fb419526348ed07c3d19e0b6fe8f5492aa3b3037793016ea478");
    return origin;
}

// The tree and the release, in the order `versus run --servers src:PATH,valkey-8.0.1-upstream` gives.
ResultsBundle treeThenRelease(const BuildOrigin &tree)
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("ecommerce");
    bundle.workload.categoryNoun = QStringLiteral("attribute");
    bundle.workload.events = 1000;
    bundle.workload.commands = 1000;
    bundle.workload.types = {QStringLiteral("counter")};
    bundle.servers.push_back(valkey801(QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty"), tree, 90));
    bundle.servers.push_back(valkey801(QStringLiteral("valkey-8.0.1-upstream"), releaseBuild(), 82));
    return bundle;
}

const QString kTreeName = QStringLiteral("Valkey 8.0.1 (tree one-pointer@1a2b3c4d-dirty)");
const QString kReleaseName = QStringLiteral("Valkey 8.0.1 (upstream build)");

} // namespace

class TestTreeNames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void treesAreNamedLikeGitDescribe_data()
    {
        QTest::addColumn<BuildOrigin>("origin");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("name");
        QTest::newRow("dirty branch") << dirtyGitTree() << QStringLiteral("8.0.1") << kTreeName;
        BuildOrigin clean = dirtyGitTree();
        clean.dirty = false;
        QTest::newRow("clean branch") << clean << QStringLiteral("8.0.1") << QStringLiteral("Valkey 8.0.1 (tree one-pointer@1a2b3c4d)");
        BuildOrigin detached = clean;
        detached.gitBranch.clear();
        QTest::newRow("detached: the folder") << detached << QStringLiteral("8.0.1") << QStringLiteral("Valkey 8.0.1 (tree valkey@1a2b3c4d)");
        BuildOrigin folder = detached;
        folder.gitSha.clear();
        folder.source = QStringLiteral("/tmp/build/valkey-8.0.1/");
        QTest::newRow("no git: the content hash") << folder << QStringLiteral("8.0.1") << QStringLiteral("Valkey 8.0.1 (tree valkey-8.0.1@5425cd4d)");
        BuildOrigin unstable = clean;
        unstable.gitBranch = QStringLiteral("unstable");
        QTest::newRow("development branch") << unstable << QStringLiteral("255.255.255") << QStringLiteral("Valkey dev build (tree unstable@1a2b3c4d)");
        QTest::newRow("release tarball") << releaseBuild() << QStringLiteral("8.0.1") << kReleaseName;
    }

    void treesAreNamedLikeGitDescribe()
    {
        QFETCH(BuildOrigin, origin);
        QFETCH(QString, version);
        QFETCH(QString, name);
        ServerRun run = valkey801(QStringLiteral("tree"), origin, 90);
        run.version = version;
        run.gitSha = QStringLiteral("00000000");
        QCOMPARE(serverDisplayName(run), name);
        ResultsBundle bundle;
        bundle.servers.push_back(run);
        QCOMPARE(serverDisplayName(bundle, run), name);
    }

    // `versus servers` and the window's tooltip say a tree is one, by its name.
    void theOriginSaysTree()
    {
        QCOMPARE(buildOriginSummary(dirtyGitTree()), QStringLiteral("source tree one-pointer@1a2b3c4d-dirty"));
        QCOMPARE(buildOriginSummary(releaseBuild()), QStringLiteral("upstream build"));
    }

    // Every view of the run names the two apart, and compares the tree with the release.
    void theReleaseIsTheBaselineAndEveryViewNamesTheTree()
    {
        for (const bool releaseFirst : {false, true}) {
            ResultsBundle bundle = treeThenRelease(dirtyGitTree());
            if (releaseFirst)
                std::swap(bundle.servers[0], bundle.servers[1]);
            const Figures figures(bundle);
            QCOMPARE(figures.baselineId(), QStringLiteral("valkey-8.0.1-upstream"));
            QCOMPARE(figures.serverIds(), QStringList({QStringLiteral("valkey-8.0.1-upstream"), QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty")}));
            QCOMPARE(figures.summary(QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty")).name, kTreeName);
            QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1-upstream")).name, kReleaseName);
            // The tree takes 8 bytes per key more than the release: +9.8%, never −8.9%.
            const FigureTable memory = figures.memory();
            const std::optional<Headline> headline = figures.headline(memory);
            QVERIFY(headline && headline->change);
            QCOMPARE(headline->fromId, QStringLiteral("valkey-8.0.1-upstream"));
            QCOMPARE(formatPercentChange(*headline->change), QStringLiteral("+9.8%"));
            const QString markdown = bundleToMarkdown(figures);
            QVERIFY2(markdown.contains(QStringLiteral("Baseline: %1.").arg(kReleaseName)), qPrintable(markdown));
            QVERIFY2(markdown.contains(QStringLiteral("| Attribute | %1 | %2 |").arg(kReleaseName, kTreeName)), qPrintable(markdown));
            QVERIFY2(markdown.contains(QStringLiteral("| All attributes | 82.0 | 90.0 (+9.8%) |")), qPrintable(markdown));
            const QString report = reportMarkdown(figures, {});
            QVERIFY2(report.startsWith(QStringLiteral("# %1 and %2 on the ecommerce workload").arg(kReleaseName, kTreeName)), qPrintable(report));
        }
    }

    // Two builds of one dirty commit are told apart by their content.
    void twoBuildsOfOneDirtyCommitAreToldApart()
    {
        ResultsBundle bundle = treeThenRelease(dirtyGitTree());
        BuildOrigin later = dirtyGitTree();
        later.sourceSha256 = QStringLiteral("f9c5868ec57845c3ec0b62cbf84accb9575009d658f8f94f20c12b61e9943ac9");
        bundle.servers.push_back(valkey801(QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty-2"), later, 91));
        const Figures figures(bundle);
        QCOMPARE(figures.summary(QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty")).name,
                 QStringLiteral("Valkey 8.0.1 (tree one-pointer@1a2b3c4d-dirty, content 5425cd4d)"));
        QCOMPARE(figures.summary(QStringLiteral("valkey-one-pointer-1a2b3c4d-dirty-2")).name,
                 QStringLiteral("Valkey 8.0.1 (tree one-pointer@1a2b3c4d-dirty, content f9c5868e)"));
        QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1-upstream")).name, kReleaseName);
    }

    // Debian's 8.0.1 against a build of 8.0.1 whose source is recorded as `upstream`.
    void sameSourceMeansTheSameSourceHash_data()
    {
        QTest::addColumn<BuildOrigin>("debian");
        QTest::addColumn<BuildOrigin>("upstream");
        QTest::addColumn<bool>("oneAllocator");   // the Debian run's allocator read as the upstream one's
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("never");
        const ResultsBundle real = fixtureBundle("real-why-builds.json");
        const BuildOrigin debian = real.server(QStringLiteral("valkey-8.0.1"))->origin;
        const BuildOrigin release = real.server(QStringLiteral("valkey-8.0.1-upstream"))->origin;
        QTest::newRow("one release") << debian << release << false << QStringLiteral("Both are builds of release 8.0.1 and make the same ")
                                     << QStringLiteral("same source");
        BuildOrigin tree = dirtyGitTree();
        tree.makeVariables = release.makeVariables;
        QTest::newRow("a tree") << debian << tree << false << QStringLiteral("Their sources differ (sha256 5425cd4d… against Debian's 8.0.1+dfsg1-1~bpo12+1), and keys and values take 9.5 bytes per key less on "
                                                  "Valkey 8.0.1 (tree one-pointer@1a2b3c4d-dirty): the difference may be the source's as well as the allocators' rounding.")
                                << QStringLiteral("same source");
        QTest::newRow("a tree, one allocator")
            << release << tree << true
            << QStringLiteral("Their sources differ (sha256 5425cd4d… against sha256 bccb382a…), and keys and values take 9.5 bytes per key less on "
                              "Valkey 8.0.1 (tree one-pointer@1a2b3c4d-dirty): with one allocator, the difference is the source's.")
            << QStringLiteral("allocator's size classes");
        BuildOrigin sameTarball = release;
        sameTarball.makeVariables.clear();
        QTest::newRow("one tarball") << sameTarball << release << false << QStringLiteral("Both run the same source and make the same ")
                                     << QStringLiteral("Their sources differ");
    }

    void sameSourceMeansTheSameSourceHash()
    {
        QFETCH(BuildOrigin, debian);
        QFETCH(BuildOrigin, upstream);
        QFETCH(bool, oneAllocator);
        QFETCH(QString, says);
        QFETCH(QString, never);
        ResultsBundle bundle = fixtureBundle("real-why-builds.json");
        const AllocatorFacts upstreamAllocator = bundle.server(QStringLiteral("valkey-8.0.1-upstream"))->allocatorFacts;
        changeServerRun(bundle, QStringLiteral("valkey-8.0.1"), [&](ServerRun &run) {
            run.origin = debian;
            if (oneAllocator)
                run.allocatorFacts = upstreamAllocator;
        });
        changeServerRun(bundle, QStringLiteral("valkey-8.0.1-upstream"), [&](ServerRun &run) { run.origin = upstream; });
        Figures::Options builds;
        builds.hiddenServers = {QStringLiteral("valkey-9.1.2")};
        const MemoryExplanation why = Figures(bundle, builds).explainMemory(QStringLiteral("all"));
        QCOMPARE(why.fromId, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(why.toId, QStringLiteral("valkey-8.0.1-upstream"));
        QVERIFY2(why.allocations.contains(says), qPrintable(why.allocations));
        QVERIFY2(!why.allocations.contains(never), qPrintable(why.allocations));
    }
};

QTEST_MAIN(TestTreeNames)
#include "tst_treenames.moc"
