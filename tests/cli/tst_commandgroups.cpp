// The studies' command groups ("server time per write command"): each group's µs per call is
// Σusec / Σcalls over its commands in the server's own commandstats, exactly, with its change
// against the baseline. Real servers through the versus program.

#include "bundlefigures.h"
#include "bundlejson.h"
#include "chartdata.h"
#include "figures.h"
#include "presentation.h"
#include "versuscli.h"

#include <QtTest>

class CommandGroupsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void groupsAreSummedFromCommandstats()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.0.");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), older.label + "," + newer.label,
                                             QStringLiteral("--events"), QStringLiteral("1500"), QStringLiteral("--out"), bundlePath},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        for (const char *row : {"| All writes |", "| EXPIRE (TTL refreshes) |", "| SISMEMBER (dedup checks) |"})
            QVERIFY2(r.out.contains(QLatin1String(row)), r.describe());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const auto &groups = bundle->workload.commandGroups;
        QCOMPARE(int(groups.size()), 3);
        QCOMPARE(groups[1], (std::pair<QString, QStringList>{QStringLiteral("TTL refreshes"), {QStringLiteral("EXPIRE")}}));
        const Figures figures(bundle.value());
        const FigureTable time = figures.commandTime();
        for (const auto &[name, commands] : groups) {
            // A group of one command is that command's row.
            const int row = time.categoryIndex(commands.size() == 1 ? commands.front().toLower() : QStringLiteral("group:") + name);
            QVERIFY2(row >= 0, qPrintable(name));
            for (const QString &id : {older.label, newer.label}) {
                const RepeatResult &repeat = bundle->server(id)->repeats.front();
                long long usec = 0, calls = 0;
                for (const QString &command : commands) {
                    const auto stat = repeat.timing.byCommand.find(command.toLower());
                    if (stat != repeat.timing.byCommand.end()) {
                        usec += stat->second.usec;
                        calls += stat->second.calls;
                    }
                }
                QVERIFY2(calls > 0, qPrintable(name));
                QCOMPARE(time.at(row, id).value, double(usec) / double(calls));
            }
            QVERIFY(time.at(row, newer.label).change.has_value());
        }
        // The studies lead with the write group: first in the table, named in the title with
        // its two figures and their change.
        QCOMPARE(time.categories.front().id, QStringLiteral("group:writes"));
        QCOMPARE(time.categories.at(1).id, QStringLiteral("all"));
        const Figure &from = time.at(0, older.label);
        const Figure &to = time.at(0, newer.label);
        // Whether the run's repeats resolved the change is the run's (issue 43): the title says
        // which, and the test takes it from the figures, never from a time's size.
        const std::optional<Headline> headline = figures.headline(time);
        QVERIFY(headline);
        QCOMPARE(defaultChartTitle(bundle.value(), ChartKind::UsecPerCommand),
                 QStringLiteral("Time inside the commands, per command (writes), %1 → %2: %3\u00A0→\u00A0%4\u00A0µs, %5%6")
                     .arg(figures.summary(older.label).name, serverVersionText(*bundle->server(newer.label)),
                          formatFigure(from.value), formatFigure(to.value), formatPercentChange(*to.change),
                          headline->unresolved.isEmpty() ? QString() : QStringLiteral(" (not resolved)")));
        QVERIFY(cli.leftoverServers().empty());
    }
};

QTEST_GUILESS_MAIN(CommandGroupsTest)
#include "tst_commandgroups.moc"
