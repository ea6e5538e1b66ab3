// The figures as text: the CSV rows and the Markdown tables `versus run` prints.

#include "bundlecsv.h"
#include "bundlemarkdown.h"
#include "reportmarkdown.h"
#include "markdowntable.h"
#include "presentation.h"

#include "bundlebuilders.h"

#include <QtTest>

namespace {

using namespace BundleBuilders;

ServerRun server(const QString &version, double bytes, double factor, bool withHsetex)
{
    ServerRun run;
    run.id = QStringLiteral("valkey-") + version;
    run.product = QStringLiteral("valkey");
    run.version = version;
    RepeatResult repeat;
    repeat.keys = 5;
    repeat.usedMemoryDelta = (long long)(bytes * 5);
    repeat.byType[QStringLiteral("counter")] = typeMemory(2, bytes * 0.8);
    repeat.byType[QStringLiteral("sum")] = typeMemory(2, bytes * 1.2);
    if (withHsetex) {
        TypeMemory hsetex;
        if (factor == 1) {
            hsetex.status = TypeStatus::Unsupported;
            hsetex.error = QStringLiteral("ERR unknown command 'HSETEX'");
        } else {
            hsetex = typeMemory(1, 300);
        }
        repeat.byType[QStringLiteral("hsetex")] = hsetex;
    }
    repeat.timing.byCommand[QStringLiteral("incrby")] = stat(10, (long long)(12 * factor));
    repeat.timing.byCommand[QStringLiteral("set")] = stat(5, (long long)(10 * factor));
    repeat.timing.events = 5;
    repeat.timing.commands = 15;
    repeat.timing.seconds = 0.005 * factor;
    run.repeats.push_back(repeat);
    return run;
}

// Two Valkey versions, one repeat; 9.1.2 is 10% smaller and twice as fast.
ResultsBundle tinyBundle(bool withHsetex)
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("tiny");
    bundle.workload.events = 5;
    bundle.workload.commands = 15;
    bundle.workload.types = {QStringLiteral("counter"), QStringLiteral("sum")};
    if (withHsetex)
        bundle.workload.types << QStringLiteral("hsetex");
    bundle.servers.push_back(server(QStringLiteral("9.1.2"), 90, 0.5, withHsetex));
    bundle.servers.push_back(server(QStringLiteral("8.0.1"), 100, 1, withHsetex));
    return bundle;
}

// `repeats` repeats of the tiny bundle, each set up by `shape(run, repeat, r)`.
ResultsBundle repeated(int repeats, const std::function<void(const ServerRun &, RepeatResult &, int)> &shape)
{
    ResultsBundle bundle = tinyBundle(false);
    bundle.repeats = repeats;
    for (ServerRun &run : bundle.servers) {
        const RepeatResult first = run.repeats.front();
        run.repeats.clear();
        for (int r = 0; r < repeats; ++r) {
            RepeatResult repeat = first;
            repeat.repeat = r;
            shape(run, repeat, r);
            run.repeats.push_back(repeat);
        }
    }
    return bundle;
}

} // namespace

class TestBundleText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void csvRows()
    {
        const QString expected = QStringLiteral(
            "server,metric,category,value,min,max,repeats,state\n"
            "valkey-8.0.1,bytes_per_key,overall,100,100,100,1,measured\n"
            "valkey-8.0.1,bytes_per_key,counter,80,80,80,1,measured\n"
            "valkey-8.0.1,bytes_per_key,sum,120,120,120,1,measured\n"
            "valkey-8.0.1,usec_per_call,overall,1.466666667,1.466666667,1.466666667,1,measured\n"
            "valkey-8.0.1,usec_per_call,incrby,1.2,1.2,1.2,1,measured\n"
            "valkey-8.0.1,usec_per_call,set,2,2,2,1,measured\n"
            "valkey-8.0.1,usec_per_event,overall,4.4,4.4,4.4,1,measured\n"
            "valkey-8.0.1,events_per_second,overall,1000,1000,1000,1,measured\n"
            "valkey-8.0.1,commands_per_second,overall,3000,3000,3000,1,measured\n"
            "valkey-9.1.2,bytes_per_key,overall,90,90,90,1,measured\n"
            "valkey-9.1.2,bytes_per_key,counter,72,72,72,1,measured\n"
            "valkey-9.1.2,bytes_per_key,sum,108,108,108,1,measured\n"
            "valkey-9.1.2,usec_per_call,overall,0.7333333333,0.7333333333,0.7333333333,1,measured\n"
            "valkey-9.1.2,usec_per_call,incrby,0.6,0.6,0.6,1,measured\n"
            "valkey-9.1.2,usec_per_call,set,1,1,1,1,measured\n"
            "valkey-9.1.2,usec_per_event,overall,2.2,2.2,2.2,1,measured\n"
            "valkey-9.1.2,events_per_second,overall,2000,2000,2000,1,measured\n"
            "valkey-9.1.2,commands_per_second,overall,6000,6000,6000,1,measured\n");
        QCOMPARE(bundleToCsv(tinyBundle(false)), expected);
    }

    // A type one server refused: its row says so, and the totals cover what both ran.
    void csvMarksUnsupportedAndPartialTotals()
    {
        const QString csv = bundleToCsv(tinyBundle(true));
        QVERIFY2(csv.contains(QStringLiteral("valkey-8.0.1,bytes_per_key,hsetex,,,,0,unsupported\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("valkey-8.0.1,bytes_per_key,overall,100,100,100,1,measured\n")), qPrintable(csv));
        QVERIFY2(!csv.contains(QStringLiteral("usec_per_call,overall")), qPrintable(csv));
        QVERIFY2(!csv.contains(QStringLiteral("usec_per_event")), qPrintable(csv));
    }

    void csvKeepsFormulasAsText()
    {
        QCOMPARE(csvField(QStringLiteral("=HYPERLINK(\"x\")")), QStringLiteral("\"'=HYPERLINK(\"\"x\"\")\""));
        QCOMPARE(csvField(QStringLiteral("+1")), QStringLiteral("\"'+1\""));
        QCOMPARE(csvField(QStringLiteral("valkey-8.0.1")), QStringLiteral("valkey-8.0.1"));
        QCOMPARE(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    }

    void markdownTable()
    {
        const QString expected = QStringLiteral(
            "Workload: tiny, 5 events, 15 commands. Baseline: Valkey 8.0.1.\n"
            "\n"
            "### Memory per stored attribute (bytes per key)\n"
            "\n"
            "| Attribute | Valkey 8.0.1 | Valkey 9.1.2 |\n"
            "|---|---:|---:|\n"
            "| All attributes (1) | 100.0 | 90.0 (−10.0%) |\n"
            "| counter | 80.0 | 72.0 (−10.0%) |\n"
            "| sum | 120.0 | 108.0 (−10.0%) |\n"
            "| hsetex | unsupported | 300.0 |\n"
            "\n"
            "(1) Over counter and sum, the types every server supports.\n"
            "\n"
            "### Time inside the commands (commandstats, µs per call)\n"
            "\n"
            "| Command | Valkey 8.0.1 | Valkey 9.1.2 |\n"
            "|---|---:|---:|\n"
            "| INCRBY | 1.20 | 0.60 (−50.0% †) |\n"
            "| SET | 2.00 | 1.00 (−50.0% †) |\n"
            "\n"
            "† not resolved: this run's repeats do not rule out no change at 95% (a t-test over the repeats, paired where "
            "they pair), so the change is not stated as one.\n"
            "No time total: a server refused some of the commands of the timed pass, so its total would cover other "
            "commands than the others'.\n");
        QCOMPARE(bundleToMarkdown(tinyBundle(true)), expected);
        const QString complete = bundleToMarkdown(tinyBundle(false));
        QVERIFY2(complete.contains(QStringLiteral("| All attributes | 100.0 | 90.0 (−10.0%) |\n")), qPrintable(complete));
        // One repeat resolves no time change: it is shown, marked, never stated as one.
        QVERIFY2(complete.contains(QStringLiteral("| All commands | 1.47 | 0.73 (−50.0% †) |\n")), qPrintable(complete));
        QVERIFY2(complete.contains(QStringLiteral("| µs per event | 4.40 | 2.20 (−50.0% †) |\n")), qPrintable(complete));
    }

    // With repeats the tables end with how far they agree: the range (and 95% interval) of
    // µs per command, the change taken repeat by repeat, and whether memory moved at all.
    void markdownReportsTheSpreadAcrossRepeats()
    {
        std::vector<double> usecOf912;
        const ResultsBundle bundle = repeated(5, [&](const ServerRun &run, RepeatResult &repeat, int r) {
            if (run.version == QLatin1String("9.1.2")) {
                repeat.timing.byCommand[QStringLiteral("incrby")].usec = 6 + r;
                if (r == 4)
                    repeat.byType[QStringLiteral("sum")].usedMemoryDelta += 2;   // its 2 keys take 109 bytes each, not 108
                usecOf912.push_back(repeat.timing.usecPerCall());
            }
        });
        const Spread interval = spreadOf(usecOf912);
        QVERIFY(interval.hasInterval());
        const QString markdown = bundleToMarkdown(bundle);
        const QString expected = QStringLiteral(
            "\n### Across 5 repeats\n"
            "\n"
            "| | Valkey 8.0.1 | Valkey 9.1.2 |\n"
            "|---|---:|---:|\n"
            "| µs per command inside the commands, min–max | 1.47–1.47 | 0.73–1.00 |\n"
            "| µs per command inside the commands, 95% interval | 1.47–1.47 | %1–%2 |\n"
            // (11 + r) / 22 in repeat r: mean 0.591, t = 2.776, s / √5 = 0.0321.
            "| µs per command inside the commands against Valkey 8.0.1 in the same repeat, 95% interval | baseline | \u221249.8% to \u221232.0% |\n"
            "| memory per attribute, spread | identical | 0.00% (sum: 0.93%) |\n"
            "\nThe change against Valkey 8.0.1 is taken repeat by repeat: the versions of a repeat are timed side by "
            "side, so a change in the machine's own speed between repeats drops out of it.\n")
            .arg(formatFigure(interval.ciLow), formatFigure(interval.ciHigh));
        QVERIFY2(markdown.endsWith(expected), qPrintable(markdown));
        QVERIFY(!bundleToMarkdown(tinyBundle(false)).contains(QLatin1String("Across")));
    }

    // The machine's speed moves every version of a repeat together. Here it swings by 30%
    // between repeats while 9.1.2 always takes exactly 80% of 8.0.1's time: each version's own
    // range is wide, the change against the baseline is exact.
    // Beside the answer: one run says no spread is known; repeats give the time change's range.
    void noiseIsStatedBesideTheAnswer_data()
    {
        QTest::addColumn<int>("repeats");
        QTest::addColumn<QString>("note");
        QTest::newRow("one run") << 1
                                 << QStringLiteral("One run: no spread is known with one repeat, so its time figures carry "
                                                   "no interval and resolve no change; repeat with --repeat 5 for both. No self-check "
                                                   "ran: add --self-check to measure this machine's noise floor.");
        QTest::newRow("3 repeats") << 3
                                   << QStringLiteral("Across 3 repeats the change in time inside the commands was −20.0% to −20.0% (min "
                                                     "to max, taken repeat by repeat).");
        QTest::newRow("5 repeats") << 5
                                   << QStringLiteral("Across 5 repeats the change in time inside the commands was −20.0% to −20.0% (95% "
                                                     "interval, taken repeat by repeat).");
    }

    void noiseIsStatedBesideTheAnswer()
    {
        QFETCH(int, repeats);
        QFETCH(QString, note);
        const double machine[] = {1.0, 1.3, 0.9, 1.15, 1.0};
        auto swing = [&](const ServerRun &run, RepeatResult &repeat, int r) {
            const long long usec = run.version == QLatin1String("9.1.2") ? 8000 : 10000;
            repeat.timing.byCommand = {{QStringLiteral("set"), stat(1000, (long long)(usec * machine[r]))}};
        };
        const Figures figures(repeated(repeats, swing));
        QVERIFY(!figures.answer().isEmpty());
        QCOMPARE(figures.noiseNote(), note);
        QVERIFY2(reportMarkdown(figures, {}).contains(note), qPrintable(reportMarkdown(figures, {})));
    }

    void markdownPairsTheChangeByRepeat_data()
    {
        QTest::addColumn<int>("repeats");
        QTest::addColumn<QString>("row");
        QTest::newRow("5 repeats: 95% interval")
            << 5 << QStringLiteral("| µs per command inside the commands against Valkey 8.0.1 in the same repeat, 95% interval | baseline | \u221220.0% to \u221220.0% |\n");
        QTest::newRow("3 repeats: min–max")
            << 3 << QStringLiteral("| µs per command inside the commands against Valkey 8.0.1 in the same repeat, min–max | baseline | \u221220.0% to \u221220.0% |\n");
    }

    void markdownPairsTheChangeByRepeat()
    {
        QFETCH(int, repeats);
        QFETCH(QString, row);
        const double machine[] = {1.0, 1.3, 0.9, 1.15, 1.0};
        auto swing = [&](const ServerRun &run, RepeatResult &repeat, int r) {
            const long long usec = run.version == QLatin1String("9.1.2") ? 8000 : 10000;
            repeat.timing.byCommand = {{QStringLiteral("set"), stat(1000, (long long)(usec * machine[r]))}};
        };
        ResultsBundle bundle = repeated(repeats, swing);
        const QString markdown = bundleToMarkdown(bundle);
        QVERIFY2(markdown.contains(row), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("| µs per command inside the commands, min–max | 9.00–13.0 | 7.20–10.4 |")), qPrintable(markdown));

        // A repeat the baseline did not complete is left out of the pairing, not paired with another.
        for (ServerRun &run : bundle.servers) {
            if (run.version == QLatin1String("8.0.1"))
                run.repeats[1].status = RepeatStatus::Failed;
            else
                run.repeats[2].timing.byCommand[QStringLiteral("set")].usec = 8100;   // 90% of the baseline's 9000
        }
        const QString paired = bundleToMarkdown(bundle);
        QVERIFY2(paired.contains(QStringLiteral("in the same repeat, min–max | baseline | \u221220.0% to \u221210.0% |")),
                 qPrintable(paired));
    }

    // Marks and notes say what a figure is: provisional while a run goes on, incomplete after a
    // cancel, and the server's own errors under the tables.
    void markdownMarksStates()
    {
        ResultsBundle live = tinyBundle(false);
        live.running = true;
        for (ServerRun &run : live.servers) {
            run.status = RunStatus::Incomplete;
            run.repeats.front().status = RepeatStatus::Incomplete;
        }
        const QString provisional = bundleToMarkdown(live);
        QVERIFY2(provisional.contains(QStringLiteral("The run is still going: every figure is provisional.")), qPrintable(provisional));
        QVERIFY2(provisional.contains(QStringLiteral("| All attributes | 100.0 * | 90.0 (−10.0%) * |")), qPrintable(provisional));

        ResultsBundle cancelled = live;
        cancelled.running = false;
        cancelled.complete = false;
        const QString incomplete = bundleToMarkdown(cancelled);
        QVERIFY2(incomplete.contains(QStringLiteral("| All attributes | 100.0 ‡ | 90.0 (−10.0%) ‡ |")), qPrintable(incomplete));
        QVERIFY2(incomplete.contains(QStringLiteral("‡ incomplete: the run stopped before every repeat finished.")), qPrintable(incomplete));
        QVERIFY2(incomplete.contains(QStringLiteral("- Valkey 9.1.2: cancelled")), qPrintable(incomplete));
    }

    // Text a server, a bundle or an option chose, in Markdown: what would run as HTML, end a
    // code span or act on a terminal shows as text.
    void markdownShowsTextAsText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("asText");
        QTest::addColumn<QString>("asCode");
        QTest::newRow("plain") << QStringLiteral("maxmemory") << QStringLiteral("maxmemory") << QStringLiteral("`maxmemory`");
        QTest::newRow("a backtick ends no span")
            << QStringLiteral("x`<img src=x onerror=alert(1)>") << QStringLiteral("x\\`&lt;img src=x onerror=alert(1)&gt;")
            << QStringLiteral("``x`<img src=x onerror=alert(1)>``");
        QTest::newRow("runs of backticks, at both ends")
            << QStringLiteral("`a``b`") << QStringLiteral("\\`a\\`\\`b\\`") << QStringLiteral("``` `a``b` ```");
        QTest::newRow("terminal escapes and bidi overrides")
            << QStringLiteral("v\x1b[2J\u202Eevil\u009b") << QStringLiteral("v\\\\x1b\\[2J\\\\u202eevil\\\\x9b")
            << QStringLiteral("`v\\x1b[2J\\u202eevil\\x9b`");
        QTest::newRow("line breaks") << QStringLiteral("a\nb") << QStringLiteral("a b") << QStringLiteral("`a\\nb`");
    }
    void markdownShowsTextAsText()
    {
        QFETCH(QString, text);
        QFETCH(QString, asText);
        QFETCH(QString, asCode);
        QCOMPARE(markdownText(text), asText);
        QCOMPARE(markdownCode(text), asCode);
    }
};

QTEST_GUILESS_MAIN(TestBundleText)
#include "tst_bundletext.moc"
