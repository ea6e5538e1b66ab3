// `versus --demo --autorun` and `versus --autorun` as a presenter or a script starts them: the
// run takes the workload's and the run's own defaults, whatever an earlier session of the window
// left in its settings (a remembered 2,000 keys showed hsetex at 1.44× set-ex instead of 1.86×),
// and those settings are still there for the next ordinary start of the window.

#include "bundlejson.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QSettings>
#include <QtTest>

namespace {

// What an earlier session of the window chose, none of it the defaults.
void rememberNonDefaultChoices(QSettings &settings, const QString &serverLabel)
{
    settings.setValue(QStringLiteral("servers/selected"), QStringList{serverLabel});
    settings.setValue(QStringLiteral("workload/kind"), QStringLiteral("ecommerce"));
    settings.setValue(QStringLiteral("workload/keys"), 2000);
    settings.setValue(QStringLiteral("workload/value-size"), 16);
    settings.setValue(QStringLiteral("workload/ttl"), 60);
    settings.setValue(QStringLiteral("workload/hashTtlHashTag"), QStringLiteral("user"));
    settings.setValue(QStringLiteral("workload/sweep"), QStringLiteral("value-size=16,64"));
    settings.setValue(QStringLiteral("run/repeats"), 2);
    settings.setValue(QStringLiteral("run/schedule"), QStringLiteral("concurrent"));
    settings.setValue(QStringLiteral("run/topology"), QStringLiteral("standalone,cluster:1"));
    settings.setValue(QStringLiteral("run/serverConfig"), QStringLiteral("hash-max-listpack-entries=1"));
    settings.sync();
}

} // namespace

class WindowStartTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void startsFromTheWorkloadsDefaults_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("demo") << QStringList{QStringLiteral("--demo"), QStringLiteral("--callout"), QStringLiteral("--autorun"),
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl")};
        QTest::newRow("autorun") << QStringList{QStringLiteral("--autorun"), QStringLiteral("--workload"), QStringLiteral("hash-ttl")};
    }

    void startsFromTheWorkloadsDefaults()
    {
        QFETCH(QStringList, arguments);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1");
        VersusCli cli;
        const QString configHome = cli.path(QStringLiteral("config"));
        cli.environment().insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
        const QString settingsFile = configHome + QStringLiteral("/versus/versus.conf");
        {
            QSettings remembered(settingsFile, QSettings::IniFormat);
            rememberNonDefaultChoices(remembered, server.label);
        }

        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        const VersusCli::Result r =
            cli.run(arguments + QStringList{QStringLiteral("--out"), bundlePath, QStringLiteral("--quit")});
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));

        // hash-ttl's own parameters, one run, no sweep.
        QCOMPARE(bundle->workload.name, QStringLiteral("hash-ttl"));
        const std::map<QString, QString> defaults = {{QStringLiteral("keys"), QStringLiteral("20000")},
                                                     {QStringLiteral("ttl"), QStringLiteral("900")},
                                                     {QStringLiteral("value-size"), QStringLiteral("120")}};
        QCOMPARE(bundle->workload.parameters, defaults);
        QVERIFY(!bundle->isSweep());
        // The run's defaults: one repeat, the fair schedule, standalone, no server settings.
        QCOMPARE(bundle->repeats, 1);
        QCOMPARE(bundle->schedule, Schedule::Fair);
        QCOMPARE(bundle->servers.size(), size_t(1));
        const ServerRun &run = bundle->servers.front();
        QCOMPARE(run.id, server.label);
        QVERIFY(!run.topology.isCluster());
        QVERIFY(run.configApplied.empty());
        QVERIFY(run.configRefused.empty());

        // What the earlier session chose is still remembered for the next ordinary start.
        QSettings after(settingsFile, QSettings::IniFormat);
        QCOMPARE(after.value(QStringLiteral("workload/kind")).toString(), QStringLiteral("ecommerce"));
        QCOMPARE(after.value(QStringLiteral("workload/keys")).toInt(), 2000);
        QCOMPARE(after.value(QStringLiteral("workload/value-size")).toInt(), 16);
        QCOMPARE(after.value(QStringLiteral("workload/ttl")).toInt(), 60);
        QCOMPARE(after.value(QStringLiteral("workload/hashTtlHashTag")).toString(), QStringLiteral("user"));
        QCOMPARE(after.value(QStringLiteral("workload/sweep")).toString(), QStringLiteral("value-size=16,64"));
        QCOMPARE(after.value(QStringLiteral("run/repeats")).toInt(), 2);
        QCOMPARE(after.value(QStringLiteral("run/schedule")).toString(), QStringLiteral("concurrent"));
        QCOMPARE(after.value(QStringLiteral("run/topology")).toString(), QStringLiteral("standalone,cluster:1"));
        QCOMPARE(after.value(QStringLiteral("run/serverConfig")).toString(), QStringLiteral("hash-max-listpack-entries=1"));
        QVERIFY(cli.leftoverServers().empty());
    }
};

QTEST_GUILESS_MAIN(WindowStartTest)
#include "tst_windowstart.moc"
