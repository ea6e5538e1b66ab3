// A development build (v=255.255.255) is no release: it is named by its git sha, it is not the
// newest release a headline compares with, and a title never reads "8.0.1 → 255.255.255".

#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlejson.h"
#include "chartdata.h"
#include "presentation.h"

#include <QtTest>

namespace {

// The fixture with valkey-9.1.2 turned into a development build of `gitSha`.
ResultsBundle withDevBuild(const QString &gitSha, const QString &id)
{
    ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    for (ServerRun &run : bundle.servers) {
        if (run.id == QLatin1String("valkey-9.1.2")) {
            run.id = id;
            run.version = QStringLiteral("255.255.255");
            run.gitSha = gitSha;
        }
    }
    return bundle;
}

void dropServer(ResultsBundle &bundle, const QString &id)
{
    bundle.servers.erase(std::remove_if(bundle.servers.begin(), bundle.servers.end(),
                                        [&](const ServerRun &run) { return run.id == id; }),
                         bundle.servers.end());
}

} // namespace

class TestDevBuildTitles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namedBySha()
    {
        const ResultsBundle bundle = withDevBuild(QStringLiteral("3c1a7d5b9e0f"), QStringLiteral("valkey-dev-3c1a7d5b"));
        QCOMPARE(serverDisplayName(*bundle.server(QStringLiteral("valkey-dev-3c1a7d5b"))), QStringLiteral("Valkey dev build 3c1a7d5b"));
        // Sorted after the releases of its product, before other products.
        QCOMPARE(orderedServerIds(bundle),
                 (QStringList{"valkey-8.0.1", "valkey-8.1.1", "valkey-dev-3c1a7d5b", "redis-7.0.15"}));
    }

    void namedByIdWithoutSha()
    {
        const ResultsBundle bundle = withDevBuild(QStringLiteral("00000000"), QStringLiteral("valkey-dev-unstable"));
        QCOMPARE(serverDisplayName(*bundle.server(QStringLiteral("valkey-dev-unstable"))),
                 QStringLiteral("Valkey dev build (valkey-dev-unstable)"));
    }

    // The headline compares with the newest release, not with the development build.
    void headlineIsTheNewestRelease()
    {
        const ResultsBundle bundle = withDevBuild(QStringLiteral("3c1a7d5b9e0f"), QStringLiteral("valkey-dev-3c1a7d5b"));
        const QString title = defaultChartTitle(bundle, ChartKind::MemoryPerAttribute);
        QVERIFY2(title.startsWith(QStringLiteral("Memory per stored attribute, Valkey 8.0.1 → 8.1.1: ")), qPrintable(title));
    }

    // With no other release to compare with, the title names the build, not 255.255.255.
    void titleNamesTheBuild()
    {
        ResultsBundle bundle = withDevBuild(QStringLiteral("3c1a7d5b9e0f"), QStringLiteral("valkey-dev-3c1a7d5b"));
        dropServer(bundle, QStringLiteral("valkey-8.1.1"));
        QCOMPARE(defaultChartTitle(bundle, ChartKind::MemoryPerAttribute),
                 QStringLiteral("Memory per stored attribute, Valkey 8.0.1 → dev build 3c1a7d5b: 241.7\u00A0→\u00A0217.6\u00A0bytes, −10.0%"));
        for (ChartKind kind : {ChartKind::MemoryPerAttribute, ChartKind::UsecPerCommand, ChartKind::UsecPerEvent})
            QVERIFY(!defaultChartTitle(bundle, kind).contains(QStringLiteral("255.255.255")));
    }
};

QTEST_GUILESS_MAIN(TestDevBuildTitles)
#include "tst_devbuildtitles.moc"
