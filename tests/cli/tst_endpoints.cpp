// `versus run` against endpoints: servers the test starts itself with their own defaults, as a
// user's server would be. The password comes from the source the user chose, and only from it;
// a run puts back every setting it changed, after success, failure and Ctrl-C alike; one
// server named twice is refused; [::1]:port works; and the first run on an endpoint with
// default settings measures the same memory as a server Versus launched.
#include "bundlejson.h"
#include "figures.h"
#include "foreignserver.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QtTest>
#include <cstdlib>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace {

const char *const kPassword = "right-pw 7";
const char *const kUserLibrary = "#!lua name=userlib\nredis.register_function('user_one', function() return 1 end)";
const char *const kOthersLibrary = "#!lua name=otherlib\nredis.register_function('other', function() return 5 end)";

QStringList smallRun(const QString &servers)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), servers, QStringLiteral("--allow-flush"),
            QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=50")};
}

// A pseudo-terminal: the child reads the slave as its stdin, the test types on the master.
class PseudoTerminal {
public:
    PseudoTerminal()
    {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (m_master >= 0 && ::grantpt(m_master) == 0 && ::unlockpt(m_master) == 0)
            m_slave = QString::fromLocal8Bit(::ptsname(m_master));
        if (m_master >= 0)
            ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
    }
    ~PseudoTerminal()
    {
        if (m_master >= 0)
            ::close(m_master);
    }
    PseudoTerminal(const PseudoTerminal &) = delete;
    PseudoTerminal &operator=(const PseudoTerminal &) = delete;

    bool ok() const { return !m_slave.isEmpty(); }
    QString slave() const { return m_slave; }
    void type(const QByteArray &text) const { (void)!::write(m_master, text.constData(), size_t(text.size())); }
    // What the terminal showed (its echo) so far.
    QByteArray shown()
    {
        char buffer[4096];
        for (ssize_t n; (n = ::read(m_master, buffer, sizeof buffer)) > 0;)
            m_shown.append(buffer, int(n));
        return m_shown;
    }
    // Whether the terminal echoes what is typed: Versus must leave it as it found it.
    bool echoes() const
    {
        termios now{};
        return ::tcgetattr(m_master, &now) == 0 && (now.c_lflag & ECHO) != 0;
    }

private:
    int m_master = -1;
    QString m_slave;
    QByteArray m_shown;
};

// INFO keyspace's database lines, "db0:keys=1,…" shortened to "db0:keys=1".
QStringList keyspace(const ForeignServer &server)
{
    QStringList databases;
    for (const QString &line : server.command({"INFO", "keyspace"}).split(QStringLiteral("\r\n"))) {
        if (line.startsWith(QLatin1String("db")))
            databases << line.section(QLatin1Char(','), 0, 0);
    }
    return databases;
}


// Names of the settings whose values differ (the values may be secrets: requirepass).
QStringList differingSettings(const std::map<QString, QString> &before, const std::map<QString, QString> &after)
{
    QStringList names;
    for (const auto &[name, value] : before) {
        if (!after.count(name) || after.at(name) != value)
            names << name;
    }
    if (after.size() != before.size())
        names << QStringLiteral("<%1 settings before, %2 after>").arg(before.size()).arg(after.size());
    return names;
}

// One server's bytes per key over all it stored, and the keys: the total ("all") where the
// figures have one; hash-ttl's patterns, which have none (each stores the same keys its own way),
// weighted by their keys, as one number to compare two servers by.
std::pair<double, double> overallBytesPerKey(const Figures &figures, const QString &serverId)
{
    const FigureTable memory = figures.memory();
    const FigureTable keys = figures.keys();
    if (const int all = memory.categoryIndex(QStringLiteral("all")); all >= 0) {
        const Figure &figure = memory.at(all, serverId);
        return {figure.hasValue() ? figure.value : -1, keys.at(keys.categoryIndex(QStringLiteral("all")), serverId).value};
    }
    double bytes = 0;
    double count = 0;
    for (int c = 0; c < int(memory.categories.size()); ++c) {
        const Figure &figure = memory.at(c, serverId);
        if (!figure.hasValue())
            return {-1, 0};
        const double typeKeys = keys.at(keys.categoryIndex(memory.categories[size_t(c)].id), serverId).value;
        bytes += figure.value * typeKeys;
        count += typeKeys;
    }
    return {count > 0 ? bytes / count : -1, count};
}

} // namespace

class EndpointsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void passwordSources_data();
    void passwordSources();
    void askpassReadsTheTerminalWithoutEcho();
    void ctrlCAtThePromptRestoresTheTerminal();
    void askpassWithStdinClosedSaysSo();
    void consentSaysWhatIsDeletedAndReset();
    void endpointIsPutBackAfterARun();
    void endpointIsPutBackAfterCtrlC();
    void libraryLoadedDuringARunIsKept();
    void endpointIsPutBackAfterAFailure();
    void sameServerNamedTwiceIsRefused_data();
    void sameServerNamedTwiceIsRefused();
    void ipv6Endpoint();
    void secretsStayOutOfBundlesAndChildren();
    void firstRunMatchesALaunchedServer_data();
    void firstRunMatchesALaunchedServer();
};

// Each source of the password, alone and against the others. A wrong password in a source
// that must lose shows it was not read; the run's exit code and messages show which was.
void EndpointsTest::passwordSources_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QStringList>("environment");   // NAME=value
    QTest::addColumn<QByteArray>("input");          // the child's stdin
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("said");          // each on stderr
    QTest::addColumn<QStringList>("unsaid");        // none on stderr

    const QString right = QLatin1String(kPassword);
    const QString fromCli = QStringLiteral("password is taken from");
    const QString overridden = QStringLiteral("is set, but");
    QTest::newRow("none") << QStringList() << QStringList() << QByteArray() << 2
                          << QStringList{QStringLiteral("needs a password; give it with --askpass, VERSUS_PASSWORD (or valkey-cli's "
                                                        "VALKEYCLI_AUTH, REDISCLI_AUTH) or --password")}
                          << QStringList();
    QTest::newRow("--password") << QStringList{QStringLiteral("--password"), right} << QStringList() << QByteArray() << 0
                                << QStringList() << QStringList{fromCli, overridden};
    QTest::newRow("VERSUS_PASSWORD") << QStringList() << QStringList{QStringLiteral("VERSUS_PASSWORD=") + right} << QByteArray() << 0
                                     << QStringList() << QStringList{fromCli, overridden};
    QTest::newRow("VERSUS_PASSWORD wrong") << QStringList() << QStringList{QStringLiteral("VERSUS_PASSWORD=wrong")} << QByteArray() << 2
                                           << QStringList{QStringLiteral("password was rejected")} << QStringList();
    QTest::newRow("REDISCLI_AUTH") << QStringList() << QStringList{QStringLiteral("REDISCLI_AUTH=") + right} << QByteArray() << 0
                                   << QStringList{QStringLiteral("the endpoints' password is taken from REDISCLI_AUTH (valkey-cli's "
                                                                 "variable; VERSUS_PASSWORD or --askpass give one for Versus alone)")}
                                   << QStringList();
    QTest::newRow("VALKEYCLI_AUTH before REDISCLI_AUTH")
        << QStringList() << QStringList{QStringLiteral("VALKEYCLI_AUTH=") + right, QStringLiteral("REDISCLI_AUTH=wrong")} << QByteArray()
        << 0 << QStringList{QStringLiteral("password is taken from VALKEYCLI_AUTH")} << QStringList();
    QTest::newRow("VERSUS_PASSWORD before REDISCLI_AUTH")
        << QStringList() << QStringList{QStringLiteral("VERSUS_PASSWORD=") + right, QStringLiteral("REDISCLI_AUTH=wrong")} << QByteArray()
        << 0 << QStringList() << QStringList{fromCli};
    QTest::newRow("--password before VERSUS_PASSWORD")
        << QStringList{QStringLiteral("--password"), right} << QStringList{QStringLiteral("VERSUS_PASSWORD=wrong")} << QByteArray() << 0
        << QStringList{QStringLiteral("versus run: VERSUS_PASSWORD is set, but --password is given and used")} << QStringList();
    QTest::newRow("--askpass from stdin before VERSUS_PASSWORD")
        << QStringList{QStringLiteral("--askpass")} << QStringList{QStringLiteral("VERSUS_PASSWORD=wrong")} << (right + QLatin1Char('\n')).toUtf8()
        << 0 << QStringList{QStringLiteral("versus run: VERSUS_PASSWORD is set, but --askpass is given and used")}
        << QStringList{QStringLiteral("Password for the endpoints")};   // no prompt when stdin is not a terminal
    QTest::newRow("--askpass, last line without its end") << QStringList{QStringLiteral("--askpass")} << QStringList() << right.toUtf8() << 0
                                                          << QStringList() << QStringList();
    QTest::newRow("--askpass, empty stdin") << QStringList{QStringLiteral("--askpass")} << QStringList() << QByteArray() << 2
                                            << QStringList{QStringLiteral("versus run: --askpass: stdin is not a terminal and its first line is empty")}
                                            << QStringList();
    QTest::newRow("--askpass with --password")
        << QStringList{QStringLiteral("--askpass"), QStringLiteral("--password"), right} << QStringList() << (right + QLatin1Char('\n')).toUtf8() << 2
        << QStringList{QStringLiteral("versus run: --askpass and --password both give the endpoints' password; give one of them")}
        << QStringList();
}

void EndpointsTest::passwordSources()
{
    QFETCH(QStringList, options);
    QFETCH(QStringList, environment);
    QFETCH(QByteArray, input);
    QFETCH(int, exitCode);
    QFETCH(QStringList, said);
    QFETCH(QStringList, unsaid);
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec, {QStringLiteral("--requirepass"), QLatin1String(kPassword)});
    QVERIFY2(server.start(), qPrintable(server.error()));

    VersusCli cli;
    for (const char *variable : {"VERSUS_PASSWORD", "VALKEYCLI_AUTH", "REDISCLI_AUTH"})
        cli.environment().remove(QLatin1String(variable));
    for (const QString &assignment : environment)
        cli.environment().insert(assignment.section(QLatin1Char('='), 0, 0), assignment.section(QLatin1Char('='), 1));
    cli.setStandardInput(input);
    const VersusCli::Result r = cli.run(smallRun(server.hostPort()) + options, 120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == exitCode, r.describe());
    for (const QString &part : said)
        QVERIFY2(r.err.contains(part), r.describe());
    for (const QString &part : unsaid)
        QVERIFY2(!r.err.contains(part), r.describe());
    QVERIFY2(!r.err.contains(QLatin1String(kPassword)) && !r.out.contains(QLatin1String(kPassword)), "the password was printed");
    QCOMPARE(server.command({"DBSIZE"}, QLatin1String(kPassword)), QStringLiteral("0"));
}

// At a terminal: a prompt on stderr, nothing typed is echoed, and the terminal echoes again
// afterwards.
void EndpointsTest::askpassReadsTheTerminalWithoutEcho()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec, {QStringLiteral("--requirepass"), QLatin1String(kPassword)});
    QVERIFY2(server.start(), qPrintable(server.error()));
    PseudoTerminal terminal;
    QVERIFY(terminal.ok());
    QVERIFY(terminal.echoes());

    VersusCli cli;
    cli.setStandardInputFile(terminal.slave());
    cli.start(smallRun(server.hostPort()) << QStringLiteral("--askpass"));
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("^Password for the endpoints: $")), 30000), qPrintable(cli.errSoFar()));
    terminal.type(QByteArray(kPassword) + '\n');
    const VersusCli::Result r = cli.finish(120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY2(!terminal.shown().contains(kPassword), terminal.shown());
    QVERIFY(terminal.echoes());
    QVERIFY2(!r.err.contains(QLatin1String(kPassword)), r.describe());
}

// Ctrl-C while Versus waits for the password: exit 130 and the terminal echoes again.
void EndpointsTest::ctrlCAtThePromptRestoresTheTerminal()
{
    PseudoTerminal terminal;
    QVERIFY(terminal.ok());
    VersusCli cli;
    cli.setStandardInputFile(terminal.slave());
    cli.start(smallRun(QStringLiteral("127.0.0.1:1")) << QStringLiteral("--askpass"));
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("Password for the endpoints: $")), 30000), qPrintable(cli.errSoFar()));
    QVERIFY(!terminal.echoes());
    cli.signal(SIGINT);
    const VersusCli::Result r = cli.finish(30000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
    QCOMPARE(r.err, QStringLiteral("Password for the endpoints: \nversus run: --askpass: interrupted\n"));
    QVERIFY(terminal.echoes());
}

// Started with stdin closed: descriptor 0 was the next file Versus opened (Qt's eventfd), and
// --askpass read it, waiting for ever. Versus puts /dev/null there first.
void EndpointsTest::askpassWithStdinClosedSaysSo()
{
    VersusCli cli;
    cli.setChildModifier([] { ::close(STDIN_FILENO); });
    const VersusCli::Result r = cli.run(smallRun(QStringLiteral("127.0.0.1:1")) << QStringLiteral("--askpass"), 60000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
    QCOMPARE(r.err, QStringLiteral("versus run: --askpass: stdin is not a terminal and its first line is empty\n"));
}

// The consent, in --help and in the refusal, names everything a run does that cannot be undone,
// and what the endpoint holds, database by database.
void EndpointsTest::consentSaysWhatIsDeletedAndReset()
{
    VersusCli help;
    const VersusCli::Result h = help.run({QStringLiteral("run"), QStringLiteral("--help")}, 30000);
    QVERIFY2(h.exitCode == 0, h.describe());
    const QString helpText = h.out.simplified();
    for (const QString &part : {QStringLiteral("every key of every database is deleted (FLUSHALL, before each pass and at the end;"),
                                QStringLiteral("its statistics are reset (CONFIG RESETSTAT: INFO stats counters, commandstats, errorstats, "
                                               "latency histograms)"),
                                QStringLiteral("latency-tracking, which Versus turns off for the run, is put back at the end, and so is every "
                                               "function library the workload loaded or replaced (one another client changes "
                                               "during the run is kept), also after a failure, a cancel or Ctrl-C"),
                                QStringLiteral("Visible to every local user in /proc/<pid>/cmdline")})
        QVERIFY2(helpText.contains(part), qPrintable(part + QStringLiteral("\n---\n") + helpText));

    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    QCOMPARE(server.command({"SET", "a", "1"}), QStringLiteral("OK"));
    RedisConnection db3;
    QVERIFY(server.connect(db3));
    QVERIFY(db3.command({"SELECT", "3"}));
    QVERIFY(db3.command({"MSET", "b", "1", "c", "2"}));

    VersusCli cli;
    QStringList refused = smallRun(server.hostPort());
    refused.removeAll(QStringLiteral("--allow-flush"));
    const VersusCli::Result r = cli.run(refused, 60000);
    QVERIFY2(r.finished && r.exitCode == 2, r.describe());
    QCOMPARE(r.err, QStringLiteral("versus run: --servers: %1 is an endpoint Versus does not launch, and a run there cannot be undone: "
                                   "every key of every database is deleted (FLUSHALL) and its statistics are reset (CONFIG RESETSTAT: "
                                   "INFO stats counters, commandstats, errorstats, latency histograms). It holds db0: 1 key, db3: 2 keys. "
                                   "Refused unless --allow-flush is given\n")
                        .arg(server.hostPort()));
    QCOMPARE(keyspace(server), (QStringList{QStringLiteral("db0:keys=1"), QStringLiteral("db3:keys=2")}));
}

// A completed run: every setting as it was, the user's function library kept, and exactly what
// the consent said gone (every key of every database).
void EndpointsTest::endpointIsPutBackAfterARun()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    QCOMPARE(server.command({"FUNCTION", "LOAD", kUserLibrary}), QStringLiteral("userlib"));
    QCOMPARE(server.command({"SET", "a", "1"}), QStringLiteral("OK"));
    const std::map<QString, QString> before = server.settings();
    QCOMPARE(before.at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));

    VersusCli cli;
    const VersusCli::Result r = cli.run(smallRun(server.hostPort()), 120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("versus run: %1 (--allow-flush): every key of every database is deleted (FLUSHALL) and its "
                                           "statistics are reset (CONFIG RESETSTAT: INFO stats counters, commandstats, errorstats, latency "
                                           "histograms); it holds db0: 1 key\n")
                                .arg(server.hostPort())),
             r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1: latency-tracking put back to yes\n").arg(server.hostPort())), r.describe());
    QCOMPARE(differingSettings(before, server.settings()), QStringList());
    QCOMPARE(server.command({"FCALL", "user_one", "0"}), QStringLiteral("1"));
    QCOMPARE(keyspace(server), QStringList());
}

// Ctrl-C in the middle of replaying: the run stops (130) and the settings are put back.
void EndpointsTest::endpointIsPutBackAfterCtrlC()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    const std::map<QString, QString> before = server.settings();

    VersusCli cli;
    QStringList arguments = smallRun(server.hostPort());
    arguments.replace(arguments.indexOf(QStringLiteral("keys=50")), QStringLiteral("keys=2000000"));
    cli.start(arguments);
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000), qPrintable(cli.errSoFar()));
    QTRY_COMPARE_WITH_TIMEOUT(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"), 30000);
    cli.signal(SIGINT);
    const VersusCli::Result r = cli.finish(120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1: latency-tracking put back to yes\n").arg(server.hostPort())), r.describe());
    QCOMPARE(differingSettings(before, server.settings()), QStringList());
    QCOMPARE(keyspace(server), QStringList());
}

// Another client loads a function library while the run replays: the run cannot have loaded
// it (hash-ttl loads none), so it is the other client's: kept, and the run says so.
void EndpointsTest::libraryLoadedDuringARunIsKept()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    QCOMPARE(server.command({"FUNCTION", "LOAD", kUserLibrary}), QStringLiteral("userlib"));

    VersusCli cli;
    QStringList arguments = smallRun(server.hostPort());
    arguments.replace(arguments.indexOf(QStringLiteral("keys=50")), QStringLiteral("keys=2000000"));
    cli.start(arguments);
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000), qPrintable(cli.errSoFar()));
    QCOMPARE(server.command({"FUNCTION", "LOAD", kOthersLibrary}), QStringLiteral("otherlib"));
    cli.signal(SIGINT);
    const VersusCli::Result r = cli.finish(120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1: function libraries changed during the run by another client: kept as they are: "
                                           "otherlib\n").arg(server.hostPort())),
             r.describe());
    QVERIFY2(!r.err.contains(QLatin1String("put back as they were")), r.describe());
    QCOMPARE(server.command({"FCALL", "other", "0"}), QStringLiteral("5"));
    QCOMPARE(server.command({"FCALL", "user_one", "0"}), QStringLiteral("1"));
}

// The endpoint stalls (CLIENT PAUSE) longer than --timeout: the server fails (exit 1), and
// its settings are put back once it answers again.
void EndpointsTest::endpointIsPutBackAfterAFailure()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    const std::map<QString, QString> before = server.settings();

    VersusCli cli;
    QStringList arguments = smallRun(server.hostPort());
    arguments.replace(arguments.indexOf(QStringLiteral("keys=50")), QStringLiteral("keys=2000000"));
    cli.start(arguments << QStringLiteral("--timeout") << QStringLiteral("500"));
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000), qPrintable(cli.errSoFar()));
    QCOMPARE(server.command({"CLIENT", "PAUSE", "2500", "ALL"}), QStringLiteral("OK"));
    const VersusCli::Result r = cli.finish(120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
    QVERIFY2(r.err.contains(QLatin1String("timed out after 500 ms")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1: latency-tracking put back to yes\n").arg(server.hostPort())), r.describe());
    QCOMPARE(differingSettings(before, server.settings()), QStringList());
}

void EndpointsTest::sameServerNamedTwiceIsRefused_data()
{
    QTest::addColumn<QString>("first");    // %1: the port
    QTest::addColumn<QString>("second");
    QTest::newRow("localhost, 127.0.0.1") << QStringLiteral("localhost:%1") << QStringLiteral("127.0.0.1:%1");
    QTest::newRow("127.0.0.1, [::1]") << QStringLiteral("127.0.0.1:%1") << QStringLiteral("[::1]:%1");
}

// Two names of one server: refused before anything is sent to it, naming both; its key stays.
void EndpointsTest::sameServerNamedTwiceIsRefused()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    QCOMPARE(server.command({"SET", "precious", "data"}), QStringLiteral("OK"));
    first = first.arg(server.port());
    second = second.arg(server.port());

    VersusCli cli;
    const VersusCli::Result r = cli.run(smallRun(first + QLatin1Char(',') + second), 60000);
    QVERIFY2(r.finished && r.exitCode == 2, r.describe());
    QVERIFY2(r.err.endsWith(QStringLiteral("versus run: --servers: %1 and %2 are the same server (INFO server run_id %3): name it once\n")
                                .arg(first, second, server.runId())),
             r.describe());
    QCOMPARE(server.command({"GET", "precious"}), QStringLiteral("data"));
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
}

// The form the endpoint error message offers, [::1]:port, runs and is named as typed.
void EndpointsTest::ipv6Endpoint()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    const QString endpoint = QStringLiteral("[::1]:%1").arg(server.port());
    VersusCli cli;
    const QString bundle = cli.path(QStringLiteral("b.json"));
    const VersusCli::Result r = cli.run(smallRun(endpoint) << QStringLiteral("--out") << bundle, 120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY2(r.err.contains(endpoint + QStringLiteral(": latency-tracking put back to yes\n")), r.describe());
    const Outcome<ResultsBundle> loaded = loadBundle(bundle);
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error()));
    QCOMPARE(int(loaded->servers.size()), 1);
    QCOMPARE(loaded->servers[0].id, endpoint);
    QCOMPARE(loaded->servers[0].status, RunStatus::Ok);
}

void EndpointsTest::firstRunMatchesALaunchedServer_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QStringList>("workload");
    QTest::newRow("valkey 9.1, ecommerce") << QStringLiteral("valkey-9.1.")
                                           << QStringList{QStringLiteral("--events"), QStringLiteral("20000")};
    QTest::newRow("valkey 8.0, ecommerce") << QStringLiteral("valkey-8.0.")
                                           << QStringList{QStringLiteral("--events"), QStringLiteral("20000")};
    QTest::newRow("valkey 9.1, 300 keys") << QStringLiteral("valkey-9.1.")
                                          << QStringList{QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                                         QStringLiteral("--set"), QStringLiteral("keys=300")};
}

// Item 8: an endpoint in use (latency tracking on, its default, with the histograms its
// commands allocated) and a server Versus launches, of the same version, in one run: the first
// run's memory per key agrees within 0.5% (or 4 KB over all the keys, above the noise of two
// readings).
void EndpointsTest::firstRunMatchesALaunchedServer()
{
    QFETCH(QString, version);
    QFETCH(QStringList, workload);
    const std::optional<ServerSpec> found = ServerTestHelpers::findFetchedServer(version);
    if (!found)
        QSKIP(qPrintable(ServerTestHelpers::missingServersMessage({version})));
    ForeignServer server(*found);
    QVERIFY2(server.start(), qPrintable(server.error()));
    // What a user's commands leave: a latency histogram for each command called.
    for (const std::vector<std::string> &command : std::vector<std::vector<std::string>>{
             {"SET", "k", "v"}, {"GET", "k"}, {"HSET", "h", "f", "v"}, {"HGET", "h", "f"}, {"SADD", "s", "m"}, {"ZADD", "z", "1", "m"},
             {"EXPIRE", "k", "100"}, {"INCR", "n"}, {"DEL", "k", "h", "s", "z", "n"}, {"PING"}, {"DBSIZE"}, {"INFO"}})
        QVERIFY(!server.command(command).startsWith(QLatin1Char('<')));

    VersusCli cli;
    const QString bundle = cli.path(QStringLiteral("b.json"));
    const QStringList arguments = QStringList{QStringLiteral("run"), QStringLiteral("--servers"),
                                              found->label + QLatin1Char(',') + server.hostPort(), QStringLiteral("--allow-flush"),
                                              QStringLiteral("--out"), bundle}
                                  + workload;
    const VersusCli::Result r = cli.run(arguments, 600000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    const Outcome<ResultsBundle> loaded = loadBundle(bundle);
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error()));
    const Figures figures(loaded.value());
    const auto [launched, keyCount] = overallBytesPerKey(figures, found->label);
    const double endpoint = overallBytesPerKey(figures, server.hostPort()).first;
    QVERIFY2(launched > 0 && endpoint > 0, r.describe());
    const double difference = endpoint / launched - 1;
    // 0.5%, or 4 KB in total over the keys where that is more. Each of the two readings is within
    // about 1.2 KB of its own: from Valkey 8.1 the hash seed, drawn at each start, decides how
    // many of the tables' buckets overflow into child buckets of 64 bytes (docs/MEASUREMENT.md,
    // "Memory across repeats"). So their difference is within about 2.4 KB: the
    // 900 keys of hash-ttl at 300 keys read from +0.33% to −0.77% (2.2 KB) over five runs, the
    // launched server alone from 323.0 to 324.9 bytes per key. A latency histogram left counted
    // would be about 40 KB, as the server's source puts it, ten times the allowance.
    const double allowed = std::max(0.005, 4096.0 / (keyCount * launched));
    qInfo("%s: launched %.2f, endpoint %.2f bytes per key over %.0f keys (%+.3f%%, allowed %.3f%%)", qPrintable(found->label),
          launched, endpoint, keyCount, 100 * difference, 100 * allowed);
    QVERIFY2(keyCount > 0, r.describe());
    QVERIFY2(std::abs(difference) <= allowed,
             qPrintable(QStringLiteral("launched %1, endpoint %2 bytes per key").arg(launched).arg(endpoint)));
}

QTEST_GUILESS_MAIN(EndpointsTest)
// The endpoint's own secrets (its primaryauth) are hidden in the bundle like its requirepass,
// and the password given through VERSUS_PASSWORD reaches no child: a launched server (through
// a wrapper that writes down its environment) never sees it.
void EndpointsTest::secretsStayOutOfBundlesAndChildren()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    const QString password = QStringLiteral("endpoint-pw-4471");
    const QString primaryAuth = QStringLiteral("primary-secret-9902");
    ForeignServer server(spec, {QStringLiteral("--requirepass"), password, QStringLiteral("--primaryauth"), primaryAuth});
    QVERIFY2(server.start(), qPrintable(server.error()));
    VersusCli cli;
    const QString environments = cli.path(QStringLiteral("environments"));
    QVERIFY(QDir().mkpath(environments));
    const QString wrapper = cli.path(QStringLiteral("wrapped/valkey-server"));
    QVERIFY(QDir().mkpath(QFileInfo(wrapper).absolutePath()));
    QString command;
    for (const QString &part : QStringList{spec.program} + spec.prefixArguments)
        command += QStringLiteral(" '%1'").arg(part);
    QFile script(wrapper);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\nenv > '%1/env.'$$\nexec%2 \"$@\"\n").arg(environments, command).toUtf8());
    script.close();
    QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

    cli.environment().insert(QStringLiteral("VERSUS_PASSWORD"), password);
    const QString bundlePath = cli.path(QStringLiteral("b.json"));
    const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.hostPort() + QLatin1Char(',') + wrapper,
                                         QStringLiteral("--allow-flush"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                         QStringLiteral("--set"), QStringLiteral("keys=100"), QStringLiteral("--out"), bundlePath},
                                        180000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY(cli.leftoverServers().empty());
    QFile bundle(bundlePath);
    QVERIFY(bundle.open(QIODevice::ReadOnly));
    const QByteArray written = bundle.readAll();
    QVERIFY(written.contains("\"primaryauth\": \"(hidden)\"") || written.contains("\"primaryauth\":\"(hidden)\""));
    for (const QString &secret : {password, primaryAuth}) {
        QVERIFY2(!written.contains(secret.toUtf8()), qPrintable(secret + QStringLiteral(" is in the bundle")));
        QVERIFY2(!r.out.contains(secret) && !r.err.contains(secret), r.describe());
    }
    const QStringList seen = QDir(environments).entryList(QDir::Files);
    QVERIFY2(!seen.isEmpty(), "the wrapper was never started");
    for (const QString &name : seen) {
        QFile environment(environments + QLatin1Char('/') + name);
        QVERIFY(environment.open(QIODevice::ReadOnly));
        QVERIFY2(!environment.readAll().contains(password.toUtf8()), qPrintable(name + QStringLiteral(" holds the endpoint's password")));
    }
}

#include "tst_endpoints.moc"
