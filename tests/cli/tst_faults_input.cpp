// Bad input given to the real `versus` binary: broken captures, wrong configs, a bundle from the
// future, binaries and endpoints that are not servers, and endpoints that need a password.
// Each must end with a message naming what and where, exit code 2, and no crash.

#include "figureviews.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QRandomGenerator>
#include <QtTest>
#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

using TestFiles::writeFile;

// Answers every connection on a loopback port like a web server refusing the request.
class HttpResponder {
public:
    HttpResponder()
    {
        m_socket = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int reuse = 1;
        ::setsockopt(m_socket, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse);
        if (::bind(m_socket, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(m_socket, 8) != 0)
            return;
        socklen_t length = sizeof address;
        ::getsockname(m_socket, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~HttpResponder()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        ::close(m_socket);
    }
    int port() const { return m_port; }
    int connections() const { return m_connections; }

private:
    void serve()
    {
        while (!m_stop) {
            pollfd listening{m_socket, POLLIN, 0};
            if (::poll(&listening, 1, 50) <= 0)
                continue;
            const int client = ::accept(m_socket, nullptr, nullptr);
            if (client < 0)
                continue;
            ++m_connections;
            pollfd readable{client, POLLIN, 0};
            char request[4096];
            if (::poll(&readable, 1, 1000) > 0)
                (void)!::read(client, request, sizeof request);
            const char reply[] = "HTTP/1.0 400 Bad Request\r\n\r\n";
            (void)!::write(client, reply, sizeof reply - 1);
            ::close(client);
        }
    }
    int m_socket = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    std::thread m_thread;
};

QString fixture(const char *name)
{
    return QStringLiteral(VERSUS_FIXTURES "/faults/") + QLatin1String(name);
}

} // namespace

class FaultsInputTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // The workload file is read and checked before any server starts.
    void badWorkloadFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("extraArguments");
        QTest::addColumn<QStringList>("messageParts");
        QTest::newRow("truncated JSONL") << QStringLiteral("events-truncated.jsonl") << QStringList()
                                         << QStringList{QStringLiteral("events-truncated.jsonl:2:"), QStringLiteral("unexpected end of input")};
        QTest::newRow("garbled JSONL") << QStringLiteral("events-garbled.jsonl") << QStringList()
                                       << QStringList{QStringLiteral("events-garbled.jsonl:2:"), QStringLiteral("JSON")};
        QTest::newRow("MONITOR broken quoting") << QStringLiteral("monitor-broken-quoting.txt") << QStringList()
                                                << QStringList{QStringLiteral("monitor-broken-quoting.txt:3:"), QStringLiteral("quotes")};
        QTest::newRow("binary garbage") << QStringLiteral("<garbage>") << QStringList()
                                        << QStringList{QStringLiteral("garbage.bin:"), QStringLiteral("binary data at byte")};
        QTest::newRow("0-byte file") << QStringLiteral("<empty>") << QStringList()
                                     << QStringList{QStringLiteral("empty.txt:"), QStringLiteral("empty")};
        QTest::newRow("10 MB line") << QStringLiteral("<long-line>") << QStringList()
                                    << QStringList{QStringLiteral("long-line.txt:1:"), QStringLiteral("line longer than")};
        QTest::newRow("attribute config with wrong types")
            << QStringLiteral("ecommerce") << QStringList{QStringLiteral("--events"), QStringLiteral("100"), QStringLiteral("--attributes"), fixture("attributes-wrong-types.json")}
            << QStringList{QStringLiteral("attributes-wrong-types.json:"), QStringLiteral("version"), QStringLiteral("must be an integer")};
        // Mostly not a command file: --lenient must not turn it into a run that exits 0.
        QTest::newRow("--lenient on a mostly malformed file")
            << QStringLiteral("<mostly-malformed>") << QStringList{QStringLiteral("--lenient")}
            << QStringList{QStringLiteral("mostly-malformed.txt: 40 of 50 command lines are malformed (first at line 1:"),
                           QStringLiteral("--lenient skips at most 1%")};
        QTest::newRow("missing file") << QStringLiteral("<missing>") << QStringList()
                                      << QStringList{QStringLiteral("no-such-capture.txt"), QStringLiteral("neither a built-in workload")};
    }

    void badWorkloadFile()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, extraArguments);
        QFETCH(QStringList, messageParts);
        VersusCli cli;
        QString workload = kind;
        if (kind == QLatin1String("<garbage>")) {
            workload = cli.path(QStringLiteral("garbage.bin"));
            QRandomGenerator random(8);
            QByteArray bytes(64 * 1024, Qt::Uninitialized);
            for (char &byte : bytes)
                byte = char(random.bounded(256));
            QVERIFY(writeFile(workload, bytes));
        } else if (kind == QLatin1String("<empty>")) {
            workload = cli.path(QStringLiteral("empty.txt"));
            QVERIFY(writeFile(workload, QByteArray()));
        } else if (kind == QLatin1String("<long-line>")) {
            workload = cli.path(QStringLiteral("long-line.txt"));
            QVERIFY(writeFile(workload, QByteArray("SET k ") + QByteArray(10 * 1024 * 1024, 'x') + QByteArray("\nGET k\n")));
        } else if (kind == QLatin1String("<mostly-malformed>")) {
            workload = cli.path(QStringLiteral("mostly-malformed.txt"));
            QVERIFY(writeFile(workload, QByteArray("SET \"open quote\n").repeated(40) + QByteArray("SET k v\n").repeated(10)));
        } else if (kind == QLatin1String("<missing>")) {
            workload = cli.path(QStringLiteral("no-such-capture.txt"));
        } else if (kind != QLatin1String("ecommerce")) {
            workload = fixture(kind.toLatin1().constData());
        }
        const VersusCli::Result r = cli.run(QStringList{QStringLiteral("run"), QStringLiteral("--workload"), workload} + extraArguments, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        for (const QString &part : messageParts)
            QVERIFY2(r.err.contains(part), r.describe());
        QVERIFY2(r.err.count(QLatin1Char('\n')) <= 3, r.describe());   // one message, not a flood
        QVERIFY(cli.leftoverDirs().isEmpty());
    }

    void bundleFromTheFuture()
    {
        VersusCli cli;
        QFile source(QStringLiteral(VERSUS_FIXTURES "/bundles/hash-ttl-3-versions.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray json = source.readAll();
        QVERIFY(json.contains("\"versus.results/1\""));
        json.replace("\"versus.results/1\"", "\"versus.results/7\"");
        const QString path = cli.path(QStringLiteral("future.json"));
        QVERIFY(writeFile(path, json));
        const QString exportDir = cli.path(QStringLiteral("charts"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), path, QStringLiteral("--export-dir"), exportDir}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(path) && r.err.contains(QLatin1String("versus.results/7")) && r.err.contains(QLatin1String("newer")), r.describe());
        QVERIFY(!QFileInfo::exists(exportDir) || QDir(exportDir).isEmpty());
    }

    // A misspelt --chart is refused before anything is read, naming every chart there is; the
    // help lists the same names (figureviews.h). Both come from the table of views.
    void misspeltChartNamesEveryView()
    {
        VersusCli cli;
        const QString exportDir = cli.path(QStringLiteral("charts"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QStringLiteral(VERSUS_FIXTURES "/bundles/hash-ttl-3-versions.json"),
                                             QStringLiteral("--export-dir"), exportDir, QStringLiteral("--chart"),
                                             QStringLiteral("memory-per-atribute")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        // Every view the table has (figureviews.h, whose stems tst_figureviews pins), by its stem.
        QVERIFY2(r.err.contains(QStringLiteral("unknown chart \"memory-per-atribute\" (use %1)").arg(chartStems().join(QLatin1String(", ")))),
                 r.describe());
        QVERIFY(!QFileInfo::exists(exportDir));
        const VersusCli::Result help = cli.run({QStringLiteral("export"), QStringLiteral("--help")}, 60000);
        QVERIFY2(help.finished && help.exitCode == 0, help.describe());
        // Each stem, and for a view not every bundle has, when a bundle has it.
        QStringList named;
        for (const FigureView &view : figureViews())
            named << (view.presenceText.isEmpty() ? view.stem : QStringLiteral("%1 (%2)").arg(view.stem, view.presenceText));
        const QString onlyThisChart = QStringLiteral("Only this chart: %1 or %2.")
                                          .arg(named.mid(0, named.size() - 1).join(QLatin1String(", ")), named.last());
        QVERIFY2(help.out.simplified().contains(onlyThisChart), qPrintable(onlyThisChart + QLatin1Char('\n') + help.describe()));
    }

    // A program that is not a server is refused when it is identified, before anything runs.
    void binaryThatIsNotAServer_data()
    {
        QTest::addColumn<QByteArray>("script");   // empty: /bin/true
        QTest::addColumn<QStringList>("messageParts");
        QTest::newRow("/bin/true") << QByteArray() << QStringList{QStringLiteral("/bin/true"), QStringLiteral("not a Valkey or Redis server")};
        QTest::newRow("a script printing something else")
            << QByteArray("#!/bin/sh\necho 'hello from a script'\n")
            << QStringList{QStringLiteral("not-a-server.sh"), QStringLiteral("not a Valkey or Redis server"), QStringLiteral("hello from a script")};
        QTest::newRow("a script that hangs")
            << QByteArray("#!/bin/sh\nwhile :; do sleep 1; done\n")
            << QStringList{QStringLiteral("not-a-server.sh")};
    }

    void binaryThatIsNotAServer()
    {
        QFETCH(QByteArray, script);
        QFETCH(QStringList, messageParts);
        VersusCli cli;
        QString program = QStringLiteral("/bin/true");
        if (!script.isEmpty()) {
            program = cli.path(QStringLiteral("not-a-server.sh"));
            QVERIFY(writeFile(program, script, true));
        }
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), program, QStringLiteral("--workload"),
                                             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        for (const QString &part : messageParts)
            QVERIFY2(r.err.contains(part), r.describe());
        QVERIFY(cli.leftoverDirs().isEmpty());
        // The program's guardian (groupguardian.h: a fork of versus, whose command line names the
        // program) ends its group when versus closes its pipe, on its own time: on a loaded machine
        // it can still be alive the moment versus has exited.
        QTRY_VERIFY2_WITH_TIMEOUT(ServerTestHelpers::pidsMentioning(program).empty(), "the program is still running", 10000);
    }

    // An endpoint that answers, but not in RESP: refused with a message, nothing flushed or run.
    void endpointThatIsNotAServer()
    {
        HttpResponder http;
        QVERIFY(http.port() > 0);
        VersusCli cli;
        const QString endpoint = QStringLiteral("127.0.0.1:%1").arg(http.port());
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), endpoint, QStringLiteral("--allow-flush"),
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(endpoint), r.describe());
        QVERIFY2(r.err.contains(QLatin1String("did not answer like a Valkey or Redis server")), r.describe());
        QVERIFY2(r.err.contains(QLatin1String("Protocol error")), r.describe());
        QVERIFY(http.connections() >= 1);
    }

    void endpointNeedingAPassword_data()
    {
        QTest::addColumn<QString>("password");   // "<none>": no --password
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("messageParts");
        QTest::newRow("no password") << QStringLiteral("<none>") << 2
                                     << QStringList{QStringLiteral("needs a password"), QStringLiteral("--password")};
        QTest::newRow("wrong password") << QStringLiteral("not-the-secret") << 2
                                        << QStringList{QStringLiteral("password was rejected")};
        QTest::newRow("right password") << QStringLiteral("s3cret pass") << 0 << QStringList();
    }

    void endpointNeedingAPassword()
    {
        QFETCH(QString, password);
        QFETCH(int, exitCode);
        QFETCH(QStringList, messageParts);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess server(spec);
        server.setExtraArguments({QStringLiteral("--requirepass"), QStringLiteral("s3cret pass")});
        Status started = server.start();
        QVERIFY2(started, qPrintable(started ? QString() : started.error()));

        VersusCli cli;
        const QString endpoint = QStringLiteral("127.0.0.1:%1").arg(server.port());
        QStringList arguments{QStringLiteral("run"), QStringLiteral("--servers"), endpoint, QStringLiteral("--allow-flush"),
                              QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=50")};
        if (password != QLatin1String("<none>"))
            arguments << QStringLiteral("--password") << password;
        const VersusCli::Result r = cli.run(arguments, 120000);
        server.stop();
        QVERIFY2(r.finished && !r.crashed && r.exitCode == exitCode, r.describe());
        for (const QString &part : messageParts) {
            QVERIFY2(r.err.contains(part), r.describe());
            QVERIFY2(r.err.contains(endpoint), r.describe());
        }
        QVERIFY2(!r.err.contains(QLatin1String("s3cret")) && !r.out.contains(QLatin1String("s3cret")), "the password was printed");
    }
};

QTEST_GUILESS_MAIN(FaultsInputTest)
#include "tst_faults_input.moc"
