// --self-check: the first server's build run a second time, on a server of its own, as a series
// the fair schedule interleaves like the others. The option as `versus run` parses it (no server
// started), and a real run that records the A/A series and the floor it measured.

#include "bundlejson.h"
#include "jsonsupport.h"
#include "runoptions.h"
#include "versuscli.h"

#include <QtTest>
#include <set>

namespace {

// The plan `versus run` would carry out for these arguments; no server is started.
Outcome<RunPlan> selfCheckPlanOf(const QStringList &arguments)
{
    QCommandLineParser parser;
    addRunOptions(parser);
    if (!parser.parse(QStringList{QStringLiteral("versus")} + arguments))
        return Error{parser.errorText()};
    return runPlanFromParser(parser);
}

QStringList selfCheckLabelsOf(const RunPlan &plan)
{
    QStringList labels;
    for (const ServerSpec &spec : plan.request.servers)
        labels << spec.label + (spec.selfCheck ? QStringLiteral(" [self-check]") : QString());
    return labels;
}

// The server log lines of a run's stderr that start a repeat ("started") or end a timed pass
// ("timed: hsetex"), in order, each with the server that logged it.
std::vector<std::pair<QString, QString>> selfCheckScheduleOf(const QString &err, const QStringList &ids)
{
    static const QRegularExpression timedEnded(QStringLiteral("^(timed: [^:]+): \\d+ events, \\d+ commands, "));
    std::vector<std::pair<QString, QString>> steps;
    for (const QString &line : err.split(QLatin1Char('\n'))) {
        for (const QString &id : ids) {
            if (!line.startsWith(id + QStringLiteral(": ")))
                continue;
            const QString rest = line.mid(id.size() + 2);
            if (rest.startsWith(QLatin1String("started on ")))
                steps.emplace_back(QStringLiteral("started"), id);
            else if (const QRegularExpressionMatch ended = timedEnded.match(rest); ended.hasMatch())
                steps.emplace_back(ended.captured(1), id);
        }
    }
    return steps;
}

} // namespace

class SelfCheckTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // The copy is the first server's build, last in the list, in the first server's topology;
    // without the option there is none.
    void optionAddsTheFirstServerAgain()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.0.");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        const QString servers = newer.label + QLatin1Char(',') + older.label;
        const Outcome<RunPlan> plain = selfCheckPlanOf({QStringLiteral("--servers"), servers});
        QVERIFY2(plain, qPrintable(plain ? QString() : plain.error()));
        QCOMPARE(selfCheckLabelsOf(plain.value()), (QStringList{newer.label, older.label}));

        const Outcome<RunPlan> checked = selfCheckPlanOf({QStringLiteral("--servers"), servers, QStringLiteral("--self-check")});
        QVERIFY2(checked, qPrintable(checked ? QString() : checked.error()));
        QCOMPARE(selfCheckLabelsOf(checked.value()),
                 (QStringList{newer.label, older.label, newer.label + QStringLiteral("-self-check [self-check]")}));
        const ServerSpec &copy = checked->request.servers.back();
        QCOMPARE(copy.binaryPath, newer.binaryPath);
        QCOMPARE(copy.binarySha256, newer.binarySha256);
        QCOMPARE(copy.program, newer.program);

        const Outcome<RunPlan> clustered = selfCheckPlanOf({QStringLiteral("--servers"), older.label, QStringLiteral("--topology"),
                                                            QStringLiteral("cluster:1,standalone"), QStringLiteral("--self-check")});
        QVERIFY2(clustered, qPrintable(clustered ? QString() : clustered.error()));
        QCOMPARE(selfCheckLabelsOf(clustered.value()),
                 (QStringList{older.label + QStringLiteral("-cluster-1"), older.label,
                              older.label + QStringLiteral("-cluster-1-self-check [self-check]")}));
        QCOMPARE(clustered->request.servers.back().topology.primaries, 1);
    }

    // An endpoint first has no build to launch again: refused before anything starts, naming it.
    void endpointFirstIsRefused()
    {
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        // Nothing listens on port 1: the endpoint is left to the run, which never starts.
        const Outcome<RunPlan> plan = selfCheckPlanOf({QStringLiteral("--servers"), QStringLiteral("127.0.0.1:1,") + newer.label,
                                                       QStringLiteral("--allow-flush"), QStringLiteral("--self-check")});
        QVERIFY(!plan);
        QCOMPARE(plan.error(), QStringLiteral("--self-check: 127.0.0.1:1 is an endpoint: the self-check runs the first server's "
                                              "build a second time on a server of its own, so the first server must be one "
                                              "Versus launches"));
    }

    // A real run: the A/A series is in the bundle as a series of its own, the fair schedule
    // interleaved it with its original in every repeat, and the floor is recorded (its size is
    // the machine's, not asserted).
    void runRecordsTheSeriesAndTheFloor()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), spec.label, QStringLiteral("--workload"),
                                             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=300"),
                                             QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--self-check"),
                                             QStringLiteral("--out"), bundlePath},
                                            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        const QString copyId = spec.label + QStringLiteral("-self-check");

        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->servers.size(), size_t(2));
        const ServerRun *original = bundle->server(spec.label);
        const ServerRun *copy = bundle->server(copyId);
        QVERIFY(original && copy);
        QVERIFY(!original->selfCheck);
        QVERIFY(copy->selfCheck);
        QCOMPARE(copy->binarySha256, original->binarySha256);
        QCOMPARE(copy->repeats.size(), size_t(2));
        QCOMPARE(original->repeats.size(), size_t(2));

        // Each repeat: both start, then each pattern's timed pass on one and then the other.
        const std::vector<std::pair<QString, QString>> steps = selfCheckScheduleOf(r.err, {copyId, spec.label});
        std::set<QString> timedPasses;
        for (const auto &step : steps)
            timedPasses.insert(step.first);
        timedPasses.erase(QStringLiteral("started"));
        QCOMPARE(timedPasses.size(), size_t(3));   // hsetex, set-ex, hset-hexpire
        QCOMPARE(steps.size(), size_t(2 * 2 * (1 + timedPasses.size())));
        for (size_t i = 0; i + 1 < steps.size(); i += 2) {
            QCOMPARE(steps[i].first, steps[i + 1].first);
            QCOMPARE((std::set<QString>{steps[i].second, steps[i + 1].second}), (std::set<QString>{spec.label, copyId}));
        }
        QCOMPARE(steps[0].first, QStringLiteral("started"));
        QCOMPARE(steps[steps.size() / 2].first, QStringLiteral("started"));

        QFile file(bundlePath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json root = Json::parse(file.readAll().toStdString());
        const Json &check = root.at("self_check");
        QCOMPARE(QString::fromStdString(check.at("server").get<std::string>()), copyId);
        QCOMPARE(QString::fromStdString(check.at("of").get<std::string>()), spec.label);
        QCOMPARE(check.at("repeats").get<int>(), 2);
        QVERIFY2(check.at("floor_percent").is_number(), check.dump().c_str());
        // Never the answer's version, and quoted beside it.
        QVERIFY2(!r.out.contains(QStringLiteral("(self-check) stores")) && !r.out.contains(QStringLiteral("(self-check) spends")),
                 r.describe());
        // Beside the tables' figures and under the answer.
        const QString sentence = QStringLiteral("Self-check: Valkey %1 run twice, on two servers, differed by ").arg(spec.identity.version);
        QVERIFY2(r.out.count(sentence) == 2, r.describe());
    }
};

QTEST_GUILESS_MAIN(SelfCheckTest)
#include "tst_selfcheck.moc"
