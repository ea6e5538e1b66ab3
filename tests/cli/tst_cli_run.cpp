// `versus run` as a script runs it: the real binary, the real servers, and each exit code with
// the case that causes it (0 done, 1 a server or the workload's commands failed, 2 bad usage,
// 130 interrupted).

#include "bundlejson.h"
#include "figures.h"
#include "whymarkdown.h"
#include "whytimemarkdown.h"
#include "servertesthelpers.h"
#include "versuscli.h"
#include "viewfiles.h"

#include <QtTest>

namespace {

QString everyFetchedLabel()
{
    QStringList labels;
    for (const ServerSpec &spec : ServerTestHelpers::fetchedServers())
        labels << spec.label;
    return labels.join(QLatin1Char(','));
}

bool hasHsetex(const ServerRun &server)
{
    // HSETEX exists from Valkey 9.0 and Redis 8.0 on; Redis 7 and Valkey 8.x answer "unknown command".
    const int major = server.version.section(QLatin1Char('.'), 0, 0).toInt();
    return major >= (server.product == QLatin1String("valkey") ? 9 : 8);
}

} // namespace

class CliRunTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void builtInWorkloadOnEveryServer_data()
    {
        QTest::addColumn<QStringList>("workloadArguments");
        QTest::addColumn<QString>("workloadName");
        QTest::newRow("ecommerce, 2000 generated events")
            << QStringList{QStringLiteral("--workload"), QStringLiteral("ecommerce"), QStringLiteral("--events"), QStringLiteral("2000")}
            << QStringLiteral("ecommerce");
        QTest::newRow("hash-ttl, 2000 keys")
            << QStringList{QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=2000")}
            << QStringLiteral("hash-ttl");
    }

    void builtInWorkloadOnEveryServer()
    {
        QFETCH(QStringList, workloadArguments);
        QFETCH(QString, workloadName);
        VERSUS_REQUIRE_SERVERS();
        const std::vector<ServerSpec> servers = ServerTestHelpers::fetchedServers();

        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        const QString exportDir = cli.path(QStringLiteral("charts"));
        const VersusCli::Result r = cli.run(QStringList{QStringLiteral("run"), QStringLiteral("--servers"), everyFetchedLabel(),
                                                        QStringLiteral("--batch"), QStringLiteral("10"), QStringLiteral("--out"),
                                                        bundlePath, QStringLiteral("--export-dir"), exportDir}
                                            + workloadArguments);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());

        // The table on stdout names every server, then the paths of what was written.
        QVERIFY2(r.out.contains(QLatin1String("### Memory per stored attribute")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("### Time inside the commands")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("Results bundle: ") + bundlePath), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("Charts in ") + exportDir), r.describe());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        // Columns are named as a reader names the servers; the last screen is the answer and
        // how far one run can be trusted.
        const Figures figures(bundle.value());
        for (const ServerSpec &spec : servers)
            QVERIFY2(r.out.contains(QLatin1String(" | ") + figures.summary(spec.label).name + QLatin1String(" |")), qPrintable(spec.label));
        QVERIFY2(!r.out.contains(QLatin1String("| ") + servers.front().label + QLatin1String(" |")), r.describe());
        // Last, why the memory differs, in one paragraph.
        const QString why = whySummary(figures);
        QVERIFY2(!why.isEmpty(), r.describe());
        // Then where the server's time goes, when a server reported its event loop.
        const QString whyTime = whyTimeSummary(figures);
        const QString last = whyTime.isEmpty() ? QString() : QStringLiteral("Why (time): %1\n").arg(whyTime);
        QVERIFY2(r.out.endsWith(QStringLiteral("\nAnswer: %1 (%2)\n%3\nWhy: %4\n%5")
                                    .arg(figures.answer(), figures.answerCaveat(), figures.noiseNote(), why, last))
                     || r.out.endsWith(QStringLiteral("\nAnswer: %1\n%2\nWhy: %3\n%4").arg(figures.answer(), figures.noiseNote(), why, last)),
                 r.describe());
        QVERIFY2(figures.noiseNote().startsWith(QLatin1String("One run: ")), qPrintable(figures.noiseNote()));
        QVERIFY2(!r.out.contains(QLatin1String("Settings only some of these versions have")), r.describe());
        QVERIFY(bundle->complete);
        QCOMPARE(bundle->workload.name, workloadName);
        QCOMPARE(bundle->servers.size(), servers.size());
        for (const ServerRun &server : bundle->servers) {
            QVERIFY2(server.status == RunStatus::Ok, qPrintable(server.id + QLatin1String(": ") + server.error));
            QCOMPARE(server.repeats.size(), size_t(1));
            const RepeatResult &repeat = server.repeats.front();
            QCOMPARE(repeat.status, RepeatStatus::Ok);
            QVERIFY2(repeat.errors.empty(), qPrintable(server.id));
            if (workloadName == QLatin1String("hash-ttl")) {
                // Each pattern is its own timed pass of 2000 events; nothing sums them.
                QCOMPARE(repeat.timing.events, 0LL);
                QCOMPARE(repeat.byType.at(QStringLiteral("set-ex")).timing->events, 2000LL);
            } else {
                QVERIFY(repeat.keys > 0);
                QCOMPARE(repeat.timing.events, 2000LL);
            }
            QCOMPARE(int(repeat.byType.size()), bundle->workload.types.size());
            for (const QString &type : bundle->workload.types)
                QVERIFY2(repeat.byType.count(type) == 1, qPrintable(server.id + QLatin1String(" lacks ") + type));
            if (workloadName == QLatin1String("hash-ttl")) {
                const TypeMemory &hsetex = repeat.byType.at(QStringLiteral("hsetex"));
                const TypeStatus expected = hasHsetex(server) ? TypeStatus::Ok : TypeStatus::Unsupported;
                QVERIFY2(hsetex.status == expected, qPrintable(server.id + QLatin1String(": hsetex ") + typeStatusName(hsetex.status)));
                if (!hasHsetex(server))
                    QVERIFY2(hsetex.error.contains(QLatin1String("HSETEX"), Qt::CaseInsensitive), qPrintable(hsetex.error));
                QCOMPARE(repeat.byType.at(QStringLiteral("set-ex")).keys, 2000LL);
            }
        }

        // Each view the run's bundle has (a standalone run reads server-side tails, its memory
        // accounting and, on these versions, the event loop), and the data: what the run planned.
        const QStringList expectedFiles = viewFileNames(chartKindsOf(figures), {QStringLiteral("png")})
                                          + QStringList{QStringLiteral("results.csv"), QStringLiteral("results.json")};
        QVERIFY(expectedFiles.contains(QStringLiteral("server-tails.png")) && expectedFiles.contains(QStringLiteral("why-time.png")));
        QVERIFY(expectedFiles.contains(QStringLiteral("why-memory.png")));
        QCOMPARE(chartKindsOf(figures), plannedChartKinds(false));
        QStringList written = QDir(exportDir).entryList(QDir::Files, QDir::Name);
        QStringList sortedExpected = expectedFiles;
        sortedExpected.sort();
        QCOMPARE(written, sortedExpected);
        for (const QString &file : expectedFiles) {
            QVERIFY2(QFileInfo(QDir(exportDir).filePath(file)).size() > 0, qPrintable(file));
            QVERIFY2(r.out.contains(QDir(exportDir).filePath(file)), qPrintable(file));
        }
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
    }

    // Exit 1: the workload's commands got errors the server should not have given.
    void commandErrorsExitOne()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.label,
                                             QStringLiteral("--workload"), QStringLiteral(VERSUS_FIXTURES "/faults/incr-on-string.txt"),
                                             QStringLiteral("--out"), bundlePath});
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->servers.size(), size_t(1));
        const RepeatResult &repeat = bundle->servers.front().repeats.front();
        QCOMPARE(repeat.errors.size(), size_t(1));
        QVERIFY2(repeat.errors.begin()->first.startsWith(QLatin1String("INCR")), qPrintable(repeat.errors.begin()->first));
        QVERIFY2(repeat.errors.begin()->first.contains(QLatin1String("not an integer")), qPrintable(repeat.errors.begin()->first));
        QCOMPARE(repeat.errors.begin()->second, 2LL);
        QVERIFY(cli.leftoverServers().empty());
    }

    // Exit 2: bad usage, refused before any server starts, with a message saying what is wrong.
    void badUsageExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("messageParts");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")}
                                        << QStringList{QStringLiteral("Unknown option 'frobnicate'")};
        QTest::newRow("stray argument") << QStringList{QStringLiteral("valkey-9.1.2")}
                                        << QStringList{QStringLiteral("unexpected argument 'valkey-9.1.2'")};
        QTest::newRow("bad schedule") << QStringList{QStringLiteral("--schedule"), QStringLiteral("random")}
                                      << QStringList{QStringLiteral("--schedule"), QStringLiteral("fair or concurrent"), QStringLiteral("'random'")};
        QTest::newRow("bad repeat") << QStringList{QStringLiteral("--repeat"), QStringLiteral("0")}
                                    << QStringList{QStringLiteral("--repeat"), QStringLiteral("'0'")};
        QTest::newRow("unknown --set parameter")
            << QStringList{QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("kees=10")}
            << QStringList{QStringLiteral("unknown parameter 'kees'"), QStringLiteral("valid: keys, value-size, ttl, hash-tag")};
        QTest::newRow("--set without =") << QStringList{QStringLiteral("--set"), QStringLiteral("keys")}
                                         << QStringList{QStringLiteral("--set: expected name=value"), QStringLiteral("'keys'")};
        QTest::newRow("unknown server label")
            << QStringList{QStringLiteral("--servers"), QStringLiteral("valkey-0.0.1")}
            << QStringList{QStringLiteral("unknown server 'valkey-0.0.1'"), QStringLiteral("known:")};
        QTest::newRow("endpoint without --allow-flush")
            << QStringList{QStringLiteral("--servers"), QStringLiteral("127.0.0.1:1")}
            << QStringList{QStringLiteral("127.0.0.1:1 is an endpoint"), QStringLiteral("--allow-flush")};
        QTest::newRow("--events on hash-ttl")
            << QStringList{QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--events"), QStringLiteral("5")}
            << QStringList{QStringLiteral("--events does not apply")};
        QTest::newRow("bad export preset") << QStringList{QStringLiteral("--preset"), QStringLiteral("poster")}
                                           << QStringList{QStringLiteral("poster")};
    }

    void badUsageExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, messageParts);
        VersusCli cli;
        const VersusCli::Result r = cli.run(QStringList{QStringLiteral("run")} + arguments, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        for (const QString &part : messageParts)
            QVERIFY2(r.err.contains(part), r.describe());
        QVERIFY2(r.out.isEmpty(), r.describe());
        QVERIFY(cli.leftoverDirs().isEmpty());
    }

    // Exit 130: SIGINT mid-replay stops cleanly and writes a bundle marked incomplete.
    void interruptExits130WithIncompleteBundle()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("partial.json"));
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), older.label + QLatin1Char(',') + newer.label,
                   QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=200000"),
                   QStringLiteral("--out"), bundlePath});
        QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying  *\\d+ ev/s"))), qPrintable(cli.errSoFar()));
        // The servers start in parallel; one may be replaying before the other has said its pid.
        QTRY_COMPARE_WITH_TIMEOUT(int(cli.serverPids().size()), 2, 30000);
        cli.signal(SIGINT);
        const VersusCli::Result r = cli.finish(60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        for (const auto &entry : cli.serverPids())
            QVERIFY2(!ServerTestHelpers::processAlive(entry.second), qPrintable(entry.first));
        QVERIFY(cli.leftoverDirs().isEmpty());
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QVERIFY(!bundle->complete);
        QFile raw(bundlePath);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QVERIFY(raw.readAll().contains("\"complete\": false"));
    }

    void helpListsEveryOption()
    {
        VersusCli cli;
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--help")}, 60000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        const QStringList options{QStringLiteral("--servers"), QStringLiteral("--workload"), QStringLiteral("--attributes"),
                                  QStringLiteral("--events"), QStringLiteral("--set"), QStringLiteral("--sweep"), QStringLiteral("--repeat"),
                                  QStringLiteral("--schedule"), QStringLiteral("--batch"), QStringLiteral("--timeout"),
                                  QStringLiteral("--allow-flush"), QStringLiteral("--askpass"), QStringLiteral("--password"), QStringLiteral("--lenient"),
                                  QStringLiteral("--out"), QStringLiteral("--export-dir"), QStringLiteral("--preset"),
                                  QStringLiteral("--size"), QStringLiteral("--scale"), QStringLiteral("--format"),
                                  QStringLiteral("--theme"), QStringLiteral("--title"), QStringLiteral("--subtitle"),
                                  QStringLiteral("--footnote"), QStringLiteral("--chart"), QStringLiteral("--help")};
        for (const QString &option : options)
            QVERIFY2(r.out.contains(option + QLatin1Char(' ')) || r.out.contains(option + QLatin1Char('\n')), qPrintable(option));
        QVERIFY(r.out.contains(QLatin1String("Examples:")));
        QVERIFY(r.out.contains(QLatin1String("Exit codes:")));
        // Each subcommand's Usage names it as typed, not by the program's path.
        QVERIFY2(r.out.startsWith(QLatin1String("Usage: versus run [options]\n")), qPrintable(r.out.left(120)));
        const std::map<QString, QString> usages{{QStringLiteral("export"), QStringLiteral("Usage: versus export [options] BUNDLE\n")},
                                                {QStringLiteral("servers"), QStringLiteral("Usage: versus servers [options]\n")},
                                                {QStringLiteral("generate"), QStringLiteral("Usage: versus generate [options]\n")},
                                                {QStringLiteral("build"), QStringLiteral("Usage: versus build [options] SOURCE\n")}};
        for (const auto &[command, usage] : usages) {
            const VersusCli::Result help = cli.run({command, QStringLiteral("--help")}, 60000);
            QVERIFY2(help.finished && help.exitCode == 0 && help.out.startsWith(usage), qPrintable(help.out.left(120)));
        }
    }

    // `versus --version`, `--help` and plain `versus` go to the window's entry point; without a
    // display they must answer, not abort in the platform plugin.
    void windowEntryWithoutDisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << 0 << QStringLiteral("^versus \\d+\\.\\d+");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0 << QStringLiteral("--autorun");
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << 0 << QStringLiteral("versus run \\| export");
        QTest::newRow("no arguments") << QStringList() << 2 << QStringLiteral("no display.*versus run");
    }

    void windowEntryWithoutDisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        VersusCli cli;
        cli.environment().remove(QStringLiteral("QT_QPA_PLATFORM"));
        cli.environment().remove(QStringLiteral("DISPLAY"));
        cli.environment().remove(QStringLiteral("WAYLAND_DISPLAY"));
        const VersusCli::Result r = cli.run(arguments, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == exitCode, r.describe());
        const QRegularExpression pattern(expected, QRegularExpression::DotMatchesEverythingOption);
        QVERIFY2(pattern.match(r.out + r.err).hasMatch(), r.describe());
    }
};

QTEST_GUILESS_MAIN(CliRunTest)
#include "tst_cli_run.moc"
