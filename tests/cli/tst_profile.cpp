// --profile: a real run of the upstream build (symbols, frame pointers) whose bundle holds a
// profile of named categories that add up to its samples, and a run whose PATH has no perf that
// completes and says why once. Only counts and categories are asserted, never a time.

#include "bundlejson.h"
#include "runoptions.h"
#include "foreignserver.h"
#include "versuscli.h"

#include <QtTest>

namespace {

const QString kUpstreamLabel = QStringLiteral("valkey-8.0.1-upstream");

QStringList profileRunArguments(const QString &server, const QString &bundlePath)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), server, QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
            QStringLiteral("--set"), QStringLiteral("keys=20000"), QStringLiteral("--profile"), QStringLiteral("--out"), bundlePath};
}

// The perf processes of a run: their -o names the pass's folder under the run's TMPDIR. None may
// outlive the run.
std::vector<qint64> perfProcessesOf(const VersusCli &cli)
{
    return ServerTestHelpers::pidsMentioning(cli.childTemp() + QStringLiteral("/versus-profile-"));
}

} // namespace

class ProfileTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void optionIsParsed()
    {
        QCommandLineParser parser;
        addRunOptions(parser);
        QVERIFY(parser.parse({QStringLiteral("versus"), QStringLiteral("--profile")}));
        const Outcome<RunPlan> plan = runPlanFromParser(parser);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error()));
        QVERIFY(plan->request.profile);
        QVERIFY(parser.parse({QStringLiteral("versus")}));
        const Outcome<RunPlan> plain = runPlanFromParser(parser);
        QVERIFY(plain && !plain->request.profile);
    }

    // The upstream build keeps its symbols: most samples fold into named categories, which add
    // up to the total; the build's status is measured as "symbols". Beside it Debian's 8.0.1: no
    // profile pass starts before both servers' timed passes have ended.
    void upstreamBuildIsProfiled()
    {
        VERSUS_REQUIRE_SERVER(debian, "valkey-8.0.1");
        const std::optional<ServerSpec> spec = ServerTestHelpers::findBuiltServer(kUpstreamLabel);
        if (!spec)
            VERSUS_SERVER_MISSING(QStringLiteral("%1 is not in the server cache (scripts/test builds it)").arg(kUpstreamLabel));
        if (QStandardPaths::findExecutable(QStringLiteral("perf")).isEmpty()) {
            if (ServerTestHelpers::runningInCi())
                QFAIL("perf is not installed (scripts/setup installs linux-perf)");
            QSKIP("perf is not installed");
        }
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const QString exportDir = cli.path(QStringLiteral("charts"));
        const VersusCli::Result r = cli.run(profileRunArguments(kUpstreamLabel + QLatin1Char(',') + debian.label, bundlePath)
                                                + QStringList{QStringLiteral("--export-dir"), exportDir, QStringLiteral("--chart"),
                                                              QStringLiteral("profile")},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(perfProcessesOf(cli).empty());
        QVERIFY(QDir(cli.childTemp()).entryList({QStringLiteral("versus-profile-*")}, QDir::AllEntries).isEmpty());
        QVERIFY2(QFileInfo(QDir(exportDir).filePath(QStringLiteral("profile.png"))).size() > 0, r.describe());

        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun *upstream = bundle->server(kUpstreamLabel);
        QVERIFY(upstream && bundle->server(debian.label));
        QVERIFY(bundle->server(debian.label)->profile.recorded());
        const ServerProfile &profile = upstream->profile;
        QVERIFY2(profile.recorded(), qPrintable(profile.unavailable + QLatin1Char('\n') + QString::fromLocal8Bit(r.describe())));
        long long sum = 0, named = 0;
        for (const auto &[category, count] : profile.samples) {
            sum += count;
            if (category != ProfileCategory::Other && category != ProfileCategory::Unnamed)
                named += count;
        }
        QCOMPARE(sum, profile.totalSamples);
        QVERIFY2(named * 2 > profile.totalSamples, qPrintable(QStringLiteral("%1 of %2 named").arg(named).arg(profile.totalSamples)));
        QVERIFY(profile.samples.count(ProfileCategory::HashTable));
        QCOMPARE(profile.symbolStatus(), QStringLiteral("symbols"));
        QCOMPARE(profile.rateHz, 499);
        QVERIFY2(r.out.contains(QStringLiteral("\nProfile: Valkey 8.0.1")) && r.out.contains(QStringLiteral(" samples at 499 Hz, symbols.")),
                 r.describe());
        // The timed figures are there as in any run: the profile pass is not one of them.
        QCOMPARE(upstream->repeats.size(), size_t(1));
        // Every timed pass's end is logged before the first profile pass's.
        const qsizetype firstProfile = r.err.indexOf(QStringLiteral(": profile pass (perf, untimed): "));
        const qsizetype lastTimed = r.err.lastIndexOf(QRegularExpression(QStringLiteral(": timed: [^:\n]+: \\d+ events")));
        QVERIFY2(firstProfile > 0 && lastTimed > 0 && lastTimed < firstProfile, r.describe());
    }

    // No profile, and the run goes on: no perf on PATH (said once for the run), or a perf the
    // kernel refuses (one that says what perf says under perf_event_paranoid 3 and exits: its
    // own words are the reason). The bundle keeps the reason, the last paragraph says it.
    void runGoesOnWithoutAProfile_data()
    {
        QTest::addColumn<QByteArray>("fakePerf");
        QTest::addColumn<QString>("reason");
        QTest::newRow("perf not installed") << QByteArray()
                                            << QStringLiteral("--profile: perf is not installed (Debian package linux-perf); "
                                                              "the run goes on without a profile");
        QTest::newRow("perf refused")
            << QByteArray("#!/bin/sh\necho 'Error: Access to performance monitoring and observability operations is limited.' >&2\n"
                          "exit 255\n")
            << QStringLiteral("--profile: perf record stopped at once (exit 255), saying \"Error: Access to performance monitoring "
                              "and observability operations is limited.\"");
    }

    void runGoesOnWithoutAProfile()
    {
        QFETCH(QByteArray, fakePerf);
        QFETCH(QString, reason);
        VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.");
        VersusCli cli;
        const QString path = cli.path(QStringLiteral("path"));
        QVERIFY(QDir().mkpath(path));
        if (!fakePerf.isEmpty()) {
            QFile fake(QDir(path).filePath(QStringLiteral("perf")));
            QVERIFY(fake.open(QIODevice::WriteOnly) && fake.write(fakePerf) == fakePerf.size());
            fake.close();
            QVERIFY(fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        }
        cli.environment().insert(QStringLiteral("PATH"), path);
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(profileRunArguments(spec.label, bundlePath), 300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY2(r.err.count(reason) == 1, r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("\nProfile: Valkey 8.0.1")) && r.out.contains(QStringLiteral(": no profile: ") + reason),
                 r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->servers.front().profile.unavailable, reason);
        QVERIFY(!bundle->servers.front().profile.recorded());
        QVERIFY(!bundle->servers.front().repeats.empty());
    }

    // An endpoint Versus did not start is measured but not profiled, and says why; a launched
    // server beside it is profiled as ever (when perf is there).
    void endpointIsNotProfiled()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.");
        ForeignServer endpoint(spec);
        QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(profileRunArguments(spec.label + QLatin1Char(',') + endpoint.hostPort(), bundlePath)
                                                << QStringLiteral("--allow-flush"),
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun *foreign = bundle->server(endpoint.hostPort());
        QVERIFY(foreign);
        QCOMPARE(foreign->profile.unavailable, QStringLiteral("--profile profiles only servers Versus launched: %1 is an endpoint")
                                                   .arg(endpoint.hostPort()));
        QVERIFY2(r.err.contains(foreign->profile.unavailable), r.describe());
        QVERIFY(!foreign->repeats.empty());
        const ServerRun *launched = bundle->server(spec.label);
        QVERIFY(launched);
        if (!QStandardPaths::findExecutable(QStringLiteral("perf")).isEmpty())
            QVERIFY2(launched->profile.recorded(), qPrintable(launched->profile.unavailable));
    }
};

QTEST_GUILESS_MAIN(ProfileTest)
#include "tst_profile.moc"
