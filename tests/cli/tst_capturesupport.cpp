// A capture with a command one server does not know (HSETEX, new in Valkey 9.0) runs on every
// server: only that command is unsupported on that server, the rest of the capture is
// measured, and the time totals of every server leave the command out, so they compare the
// same commands. A capture whose first command follows 70,000 blank lines is read past them.
// Real servers, through the versus program.

#include "bundlejson.h"
#include "chartdata.h"
#include "figures.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QtTest>

namespace {

const int kSets = 300;
const int kHsetex = 60;
const int kGets = 150;

QByteArray captureWithHsetex()
{
    QByteArray lines;
    for (int i = 0; i < kSets; ++i)
        lines += "SET k:" + QByteArray::number(i) + " value-" + QByteArray::number(i) + "\n";
    for (int i = 0; i < kHsetex; ++i)
        lines += "HSETEX h:" + QByteArray::number(i) + " EX 3600 FIELDS 1 f v\n";
    for (int i = 0; i < kGets; ++i)
        lines += "GET k:" + QByteArray::number(i) + "\n";
    return lines;
}

CommandStat commandStatOf(const RepeatResult &repeat, const QString &command)
{
    const auto found = repeat.timing.byCommand.find(command);
    return found == repeat.timing.byCommand.end() ? CommandStat() : found->second;
}

} // namespace

class CaptureSupportTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void commandUnknownToOneServerIsLeftOutThereOnly()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.1.");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("capture.txt"));
        QVERIFY(TestFiles::writeFile(capture, captureWithHsetex()));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), older.label + "," + newer.label,
                                             QStringLiteral("--workload"), capture, QStringLiteral("--repeat"), QStringLiteral("1"), QStringLiteral("--out"), bundlePath},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        // The printed Markdown says what the total leaves out, and why memory is not compared.
        QVERIFY2(r.out.contains(QStringLiteral("Without HSETEX, which Valkey %1 does not know").arg(older.identity.version)),
                 r.describe());
        QVERIFY2(r.out.contains(QLatin1String("so it did other work than the others")), r.describe());
        QVERIFY(cli.leftoverServers().empty());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun *olderRun = bundle->server(older.label);
        const ServerRun *newerRun = bundle->server(newer.label);
        QVERIFY(olderRun && newerRun);
        const RepeatResult &olderRepeat = olderRun->repeats.front();
        const RepeatResult &newerRepeat = newerRun->repeats.front();
        // The older server ran the rest of the capture: its type keeps its figures.
        QCOMPARE(olderRepeat.unsupportedCommands, (std::map<QString, long long>{{QStringLiteral("HSETEX"), kHsetex}}));
        QVERIFY(newerRepeat.unsupportedCommands.empty());
        QCOMPARE(olderRepeat.byType.at(QStringLiteral("capture")).status, TypeStatus::Ok);
        QCOMPARE(olderRepeat.byType.at(QStringLiteral("capture")).keys, (long long)(kSets));
        QCOMPARE(newerRepeat.byType.at(QStringLiteral("capture")).keys, (long long)(kSets + kHsetex));
        QCOMPARE(commandStatOf(olderRepeat, QStringLiteral("set")).calls, (long long)(kSets));
        QCOMPARE(commandStatOf(olderRepeat, QStringLiteral("get")).calls, (long long)(kGets));
        QCOMPARE(commandStatOf(newerRepeat, QStringLiteral("hsetex")).calls, (long long)(kHsetex));
        QVERIFY(olderRepeat.errors.empty());

        const Figures figures(bundle.value());
        QCOMPARE(figures.comparedServerIds(), QStringList({older.label, newer.label}));
        QVERIFY2(figures.dataProblems().isEmpty(), qPrintable(figures.dataProblems().join('\n')));
        // The time total covers SET and GET on both servers, exactly from commandstats.
        const FigureTable time = figures.commandTime();
        const int all = time.categoryIndex(QStringLiteral("all"));
        QVERIFY(all >= 0);
        QCOMPARE(time.categories[size_t(all)].scope, QStringLiteral("without HSETEX, which Valkey %1 does not know").arg(older.identity.version));
        for (const RepeatResult *repeat : {&olderRepeat, &newerRepeat}) {
            const CommandStat set = commandStatOf(*repeat, QStringLiteral("set")), get = commandStatOf(*repeat, QStringLiteral("get"));
            const double expected = double(set.usec + get.usec) / double(set.calls + get.calls);
            const QString id = repeat == &olderRepeat ? older.label : newer.label;
            QCOMPARE(time.at(all, id).value, expected);
            const double perEvent = double(set.usec + get.usec) / double(kSets + kGets);
            QCOMPARE(figures.perEvent().at(0, id).value, perEvent);
        }
        QVERIFY(time.at(all, newer.label).change.has_value());
        const Figure &hsetex = time.at(time.categoryIndex(QStringLiteral("hsetex")), older.label);
        QCOMPARE(hsetex.state, FigureState::Unsupported);
        QCOMPARE(hsetex.note, QStringLiteral("this server does not know HSETEX (60 commands got \"unknown command\")"));
        QCOMPARE(time.at(time.categoryIndex(QStringLiteral("hsetex")), newer.label).state, FigureState::Measured);
        // Memory cannot leave HSETEX out: both figures are shown, with no change between them.
        const FigureTable memory = figures.memory();
        const int captureRow = memory.categoryIndex(QStringLiteral("capture"));
        QVERIFY(memory.at(captureRow, older.label).hasValue());
        QVERIFY(memory.at(captureRow, newer.label).hasValue());
        QVERIFY(!memory.at(captureRow, newer.label).change.has_value());
        QCOMPARE(memory.at(captureRow, older.label).uncompared,
                 QStringLiteral("Valkey %1 did not know HSETEX (60 commands), so it did other work than the others").arg(older.identity.version));
        QVERIFY2(memory.note.contains(QLatin1String("no change is given against it")), qPrintable(memory.note));
        checkGroupsFromCommandInfo(bundle.value(), older, newer);
    }

    // What a capture holds but Versus does not replay is said while it runs and in the tables,
    // not only counted in the bundle: SELECT (its databases merged), FLUSHALL, CONFIG SET and,
    // with --lenient, malformed lines.
    void skippedCommandsArePrinted()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("capture.txt"));
        QByteArray lines = "SELECT 3\nFLUSHALL\nCONFIG SET maxmemory 1mb\n";
        for (int i = 0; i < 200; ++i)
            lines += "SET k:" + QByteArray::number(i) + " v\n";
        lines += "SET \"unterminated\n";
        QVERIFY(TestFiles::writeFile(capture, lines));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                                             capture, QStringLiteral("--lenient"), QStringLiteral("--out"), bundlePath},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const QString said = QStringLiteral("Not replayed: CONFIG SET 1, FLUSHALL 1, SELECT 1 (the capture's databases are merged "
                                            "into one: every command goes to database 0), malformed line 1 (--lenient).\n");
        QVERIFY2(r.err.contains(said), r.describe());
        QVERIFY2(r.err.indexOf(said) < r.err.indexOf(QLatin1String("replaying")), r.describe());
        QVERIFY2(r.out.contains(said), r.describe());
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->workload.skipped, (std::map<QString, long long>{{QStringLiteral("CONFIG SET"), 1},
                                                                        {QStringLiteral("FLUSHALL"), 1},
                                                                        {QStringLiteral("SELECT"), 1},
                                                                        {QStringLiteral("malformed line"), 1}}));
        QVERIFY(cli.leftoverServers().empty());
    }

    // 70,000 blank lines before the first command, more than the 64 KiB the format is told
    // from (before: "the file holds only white space", exit 2): every command is replayed.
    void blankLinesBeforeTheFirstCommandAreSkipped()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("blank-lines-first.txt"));
        QVERIFY(TestFiles::writeFile(capture, QByteArray(70000, '\n') + "SET a 1\nSET b 2\nGET a\n"));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                                             capture, QStringLiteral("--out"), bundlePath},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->workload.commands, 3LL);
        const RepeatResult &repeat = bundle->servers.front().repeats.front();
        QCOMPARE(repeat.byType.at(QStringLiteral("capture")).keys, 2LL);
        QCOMPARE(commandStatOf(repeat, QStringLiteral("set")).calls, 2LL);
        QCOMPARE(commandStatOf(repeat, QStringLiteral("get")).calls, 1LL);
    }

    // What a capture's scripts and refused commands leave on the server (the EVAL script cache,
    // the ACL log) is no stored data: the capture's bytes per key are those of the same SETs
    // alone, and "All attributes" agrees with the capture row (before: 56.7 against 45.5).
    void scriptCacheAndRefusalsAreNotData()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        QByteArray sets;
        for (int i = 0; i < 3000; ++i)
            sets += "SET k:" + QByteArray::number(i) + " value-" + QByteArray::number(i) + "\n";
        QByteArray more = sets;
        for (int i = 0; i < 300; ++i)
            more += "EVAL \"return " + QByteArray::number(i) + "\" 0\n";
        for (int i = 0; i < 50; ++i)
            more += "MIGRATE 127.0.0.1 1 k:" + QByteArray::number(i) + " 0 100\n";
        std::map<QString, FigureTable> memory;
        for (const auto &[name, content] : {std::pair{QStringLiteral("sets"), sets}, std::pair{QStringLiteral("scripts"), more}}) {
            const QString capture = cli.path(name + QStringLiteral(".txt"));
            QVERIFY(TestFiles::writeFile(capture, content));
            const QString bundlePath = cli.path(name + QStringLiteral(".json"));
            const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                                                 capture, QStringLiteral("--out"), bundlePath},
                                                120000);
            QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
            const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
            QVERIFY(bundle);
            memory[name] = Figures(bundle.value()).memory();
        }
        const auto figure = [&](const QString &name, const QString &category) {
            const FigureTable &table = memory.at(name);
            return table.at(table.categoryIndex(category), server.label).value;
        };
        const double alone = figure(QStringLiteral("sets"), QStringLiteral("capture"));
        QVERIFY(alone > 0);
        for (const QString &category : {QStringLiteral("all"), QStringLiteral("capture")}) {
            const double withScripts = figure(QStringLiteral("scripts"), category);
            QVERIFY2(std::abs(withScripts - alone) / alone < 0.02,
                     qPrintable(QStringLiteral("%1: %2 against %3 for the SETs alone").arg(category).arg(withScripts).arg(alone)));
        }
        QVERIFY(cli.leftoverServers().empty());
    }

private:
    // A capture declares no groups: "writes" and "reads" come from each server's COMMAND INFO
    // flags, and leave out what a compared server does not know, as the totals do.
    static void checkGroupsFromCommandInfo(const ResultsBundle &bundle, const ServerSpec &older, const ServerSpec &newer)
    {
        const std::map<QString, CommandKind> olderKinds{{QStringLiteral("GET"), CommandKind::Read},
                                                        {QStringLiteral("SET"), CommandKind::Write}};
        std::map<QString, CommandKind> newerKinds = olderKinds;
        newerKinds[QStringLiteral("HSETEX")] = CommandKind::Write;
        QCOMPARE(bundle.server(older.label)->commandKinds, olderKinds);
        QCOMPARE(bundle.server(newer.label)->commandKinds, newerKinds);
        // Both servers: HSETEX is left out, so each group is one command's row.
        const FigureTable both = Figures(bundle).commandTime();
        QCOMPARE(both.categories.at(size_t(both.categoryIndex(QStringLiteral("set")))).label, QStringLiteral("SET (writes)"));
        QCOMPARE(both.categories.at(size_t(both.categoryIndex(QStringLiteral("get")))).label, QStringLiteral("GET (reads)"));
        // The newer server alone: writes are SET and HSETEX, Σusec / Σcalls of its commandstats.
        const FigureTable alone = Figures(withoutServers(bundle, {older.label})).commandTime();
        QCOMPARE(alone.categories.front().id, QStringLiteral("group:writes"));
        const RepeatResult &repeat = bundle.server(newer.label)->repeats.front();
        const CommandStat set = commandStatOf(repeat, QStringLiteral("set")), hsetex = commandStatOf(repeat, QStringLiteral("hsetex"));
        QCOMPARE(alone.at(0, newer.label).value, double(set.usec + hsetex.usec) / double(set.calls + hsetex.calls));
    }
};

QTEST_GUILESS_MAIN(CaptureSupportTest)
#include "tst_capturesupport.moc"
