// Files and limits: outputs never replace a device node or FIFO, never overwrite an input; sizes
// that would abort Versus are refused up front; output options are checked before anything
// starts; a misbehaving endpoint cannot hang the start; SIGINT, SIGTERM and SIGHUP stop the
// preparation of a large workload promptly with a partial bundle; a killed write's temporary
// file is removed by the next write to that path. The real `versus` binary, real files.

#include "bundlejson.h"
#include "fixturebundle.h"
#include "misbehavingserver.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QElapsedTimer>
#include <QtTest>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

namespace {

using TestFiles::readFile;
using TestFiles::statOf;
using TestFiles::everyEntry;

const char kFixtureCommands[] = VERSUS_FIXTURES "/workloads/commands.txt";

QString fetchedLabel(const QString &prefix)
{
    for (const ServerSpec &spec : ServerTestHelpers::fetchedServers()) {
        if (spec.label.startsWith(prefix))
            return spec.label;
    }
    return QString();
}

// Reads a FIFO to its end on a thread of its own, as a consumer process would.
class FifoReader {
public:
    explicit FifoReader(const QString &path)
        : m_thread([this, native = QFile::encodeName(path)] {
              const int fd = ::open(native.constData(), O_RDONLY);
              char chunk[65536];
              ssize_t got = 0;
              while (fd >= 0 && (got = ::read(fd, chunk, sizeof chunk)) > 0)
                  m_bytes.append(chunk, int(got));
              if (fd >= 0)
                  ::close(fd);
          })
    {
    }
    QByteArray finish()
    {
        m_thread.join();
        return m_bytes;
    }

private:
    QByteArray m_bytes;
    std::thread m_thread;
};

} // namespace

class FaultsFilesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // ---- item 4: device nodes, FIFOs and inputs are never replaced ----

    void generateIntoAFifoWritesStraight()
    {
        VersusCli cli;
        const QString fifo = cli.path(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        FifoReader reader(fifo);
        const VersusCli::Result r = cli.run({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("2000"),
                                             QStringLiteral("--out"), fifo}, 60000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        const QByteArray received = reader.finish();
        QCOMPARE(received.count('\n'), 2000);
        QVERIFY(received.startsWith("{\""));
        QVERIFY(S_ISFIFO(statOf(fifo).st_mode));
        QVERIFY2(!everyEntry(cli.path(QString())).join(QLatin1Char(' ')).contains(QLatin1String("versus-tmp")),
                 qPrintable(everyEntry(cli.path(QString())).join(QLatin1Char(' '))));
    }

    void outputsToDevNullKeepTheDevice()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        const struct stat before = statOf(QStringLiteral("/dev/null"));
        VersusCli cli;
        const VersusCli::Result generated = cli.run({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("500"),
                                                     QStringLiteral("--out"), QStringLiteral("/dev/null")}, 60000);
        QVERIFY2(generated.finished && generated.exitCode == 0, generated.describe());
        const VersusCli::Result ran = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                                               QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=300"),
                                               QStringLiteral("--out"), QStringLiteral("/dev/null")}, 120000);
        QVERIFY2(ran.finished && ran.exitCode == 0, ran.describe());
        const struct stat after = statOf(QStringLiteral("/dev/null"));
        QVERIFY(S_ISCHR(after.st_mode));
        QCOMPARE(after.st_rdev, before.st_rdev);
        QCOMPARE(after.st_ino, before.st_ino);
        QVERIFY(cli.leftoverServers().empty());
    }

    // /dev/full's device (1,7): as root a node of it is made here, so the real one is never at
    // stake; otherwise /dev/full itself (which a user cannot replace anyway).
    void aFullDeviceFailsAndStaysADevice()
    {
        VersusCli cli;
        QString device = QStringLiteral("/dev/full");
        if (::geteuid() == 0) {
            device = cli.path(QStringLiteral("full"));
            QVERIFY(::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 7)) == 0);
        }
        const struct stat before = statOf(device);
        const VersusCli::Result r = cli.run({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("50000"),
                                             QStringLiteral("--out"), device}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus generate: %1: cannot write: No space left on device\n").arg(device));
        const struct stat after = statOf(device);
        QVERIFY(S_ISCHR(after.st_mode));
        QCOMPARE(after.st_rdev, before.st_rdev);
        QCOMPARE(after.st_ino, before.st_ino);
    }

    // The same file however it is named: the path itself, a symlink, a hard link.
    void outEqualToTheWorkloadIsRefused_data()
    {
        QTest::addColumn<QString>("alias");
        QTest::newRow("the same path") << QStringLiteral("capture.txt");
        QTest::newRow("a symlink to it") << QStringLiteral("link.txt");
        QTest::newRow("a hard link to it") << QStringLiteral("hard.txt");
        QTest::newRow("through ..") << QStringLiteral("sub/../capture.txt");
    }

    void outEqualToTheWorkloadIsRefused()
    {
        QFETCH(QString, alias);
        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("capture.txt"));
        QVERIFY(QFile::copy(QString::fromLatin1(kFixtureCommands), capture));
        QVERIFY(QFile::link(capture, cli.path(QStringLiteral("link.txt"))));
        QVERIFY(::link(QFile::encodeName(capture).constData(), QFile::encodeName(cli.path(QStringLiteral("hard.txt"))).constData()) == 0);
        QVERIFY(QDir().mkpath(cli.path(QStringLiteral("sub"))));
        const QByteArray original = readFile(capture);
        const QString out = cli.path(alias);
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), capture, QStringLiteral("--out"), out}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus run: --out: %1 is the file given to --workload (%2); writing there would destroy it\n")
                            .arg(out, capture));
        QCOMPARE(readFile(capture), original);
        QVERIFY(!r.err.contains(QLatin1String("started on")));
    }

    void exportIntoTheBundlesFolderKeepsTheBundle()
    {
        VersusCli cli;
        const QString folder = cli.path(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(folder));
        const QString named = folder + QStringLiteral("/results.json");
        QVERIFY(QFile::copy(QString::fromLatin1(kHashTtlFixtureBundle), named));
        const QByteArray original = readFile(named);
        const VersusCli::Result refused = cli.run({QStringLiteral("export"), named, QStringLiteral("--export-dir"), folder,
                                                   QStringLiteral("--format"), QStringLiteral("svg")}, 60000);
        QVERIFY2(refused.finished && !refused.crashed && refused.exitCode == 2, refused.describe());
        QCOMPARE(refused.err, QStringLiteral("versus export: --export-dir: %1 is the file given to BUNDLE (%1); writing there "
                                             "would destroy it\n").arg(named));
        QCOMPARE(readFile(named), original);
        QCOMPARE(everyEntry(folder), QStringList{QStringLiteral("results.json")});

        // Under another name the bundle is left alone and the export goes ahead beside it.
        const QString other = folder + QStringLiteral("/b.json");
        QVERIFY(QFile::rename(named, other));
        const VersusCli::Result exported = cli.run({QStringLiteral("export"), other, QStringLiteral("--export-dir"), folder,
                                                    QStringLiteral("--format"), QStringLiteral("svg")}, 60000);
        QVERIFY2(exported.finished && exported.exitCode == 0, exported.describe());
        QCOMPARE(readFile(other), original);
        QVERIFY(everyEntry(folder).contains(QStringLiteral("results.json")));
    }

    // ---- item 15: sizes that would abort Versus are refused up front ----

    void hugeSizesAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QString events = QStringLiteral("--events: %1 events is more than the limit of 100000000: the events are counted "
                                              "before the run and replayed into every server (about 4 minutes per server at the "
                                              "limit), and their shoppers scale with them; see docs/WORKLOADS.md");
        const QString shoppers = QStringLiteral("%1: 1000000000000 shoppers is more than the limit of 10000000: the generator keeps "
                                                "each shopper in memory (about 150 bytes, 1.5 GB at the limit) and every server keeps "
                                                "each shopper's attributes; see docs/WORKLOADS.md");
        QTest::newRow("run --events 10^12")
            << QStringList{QStringLiteral("run"), QStringLiteral("--events"), QStringLiteral("1000000000000")}
            << QStringLiteral("versus run: ") + events.arg(QStringLiteral("1000000000000"));
        QTest::newRow("run --events 10^9")
            << QStringList{QStringLiteral("run"), QStringLiteral("--events"), QStringLiteral("1000000000")}
            << QStringLiteral("versus run: ") + events.arg(QStringLiteral("1000000000"));
        QTest::newRow("run --set shoppers=10^12")
            << QStringList{QStringLiteral("run"), QStringLiteral("--set"), QStringLiteral("shoppers=1000000000000")}
            << QStringLiteral("versus run: ") + shoppers.arg(QStringLiteral("--set shoppers"));
        QTest::newRow("generate --shoppers 10^12")
            << QStringList{QStringLiteral("generate"), QStringLiteral("--shoppers"), QStringLiteral("1000000000000"),
                           QStringLiteral("--out"), QStringLiteral("never.jsonl")}
            << QStringLiteral("versus generate: ") + shoppers.arg(QStringLiteral("--shoppers"));
        QTest::newRow("generate --events 10^12")
            << QStringList{QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("1000000000000"),
                           QStringLiteral("--out"), QStringLiteral("never.jsonl")}
            << QStringLiteral("versus generate: ") + events.arg(QStringLiteral("1000000000000"));
    }

    void hugeSizesAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const QString label = fetchedLabel(QStringLiteral("valkey-9.1."));
        if (arguments.first() == QLatin1String("run")) {
            if (label.isEmpty())
                QSKIP("valkey-9.1 not fetched");
            arguments << QStringLiteral("--servers") << label;
        }
        VersusCli cli;
        QElapsedTimer timer;
        timer.start();
        const VersusCli::Result r = cli.run(arguments, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, expected + QLatin1Char('\n'));
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!QFileInfo::exists(cli.path(QStringLiteral("never.jsonl"))));
        QVERIFY(cli.leftoverServers().empty());
    }

    // ---- item 19: output options are checked before anything starts ----

    void outputOptionsAreCheckedFirst_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("expected");   // %1: the test's work folder
        QTest::newRow("--out in a missing folder") << QStringList{QStringLiteral("--out"), QStringLiteral("%1/missing/b.json")}
                                                   << QStringLiteral("--out: the folder %1/missing does not exist");
        QTest::newRow("--out is a folder") << QStringList{QStringLiteral("--out"), QStringLiteral("%1")}
                                           << QStringLiteral("--out: %1 is a folder; give a file name");
        QTest::newRow("--scale nan") << QStringList{QStringLiteral("--export-dir"), QStringLiteral("%1/charts"), QStringLiteral("--scale"), QStringLiteral("nan")}
                                     << QStringLiteral("--scale: expected 1, 2 or 3, got 'nan'");
        QTest::newRow("--scale 3.7") << QStringList{QStringLiteral("--export-dir"), QStringLiteral("%1/charts"), QStringLiteral("--scale"), QStringLiteral("3.7")}
                                     << QStringLiteral("--scale: expected 1, 2 or 3, got '3.7'");
        QTest::newRow("--size 10000x10000 --scale 4")
            << QStringList{QStringLiteral("--export-dir"), QStringLiteral("%1/charts"), QStringLiteral("--size"), QStringLiteral("10000x10000"),
                           QStringLiteral("--scale"), QStringLiteral("4")}
            << QStringLiteral("--scale: expected 1, 2 or 3, got '4'");
        QTest::newRow("--size 10000x10000 --scale 3")
            << QStringList{QStringLiteral("--export-dir"), QStringLiteral("%1/charts"), QStringLiteral("--size"), QStringLiteral("10000x10000"),
                           QStringLiteral("--scale"), QStringLiteral("3")}
            << QStringLiteral("--size 10000x10000 at --scale 3: image 30000x30000 is too large: at most 400 million pixels (1.6 GB in memory)");
        QTest::newRow("--export-dir under a file") << QStringList{QStringLiteral("--export-dir"), QStringLiteral("%1/file.txt/charts")}
                                                   << QStringLiteral("--export-dir: %1/file.txt/charts cannot be created: %1/file.txt is not a folder");
        // Root passes access() there, yet nothing can be created: the folder is made and removed
        // again before the run, not found missing after it.
        QTest::newRow("--export-dir under /proc") << QStringList{QStringLiteral("--export-dir"), QStringLiteral("/proc/versus-x/charts")}
                                                  << QStringLiteral("--export-dir: /proc/versus-x/charts cannot be created: /proc/versus-x: No such file or directory");
        QTest::newRow("--out in /proc") << QStringList{QStringLiteral("--out"), QStringLiteral("/proc/versus-x.json")}
                                        << QStringLiteral("--out: cannot write into the folder /proc: No such file or directory");
    }

    void outputOptionsAreCheckedFirst()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString root = cli.path(QStringLiteral("work"));
        QVERIFY(QDir().mkpath(root));
        QFile file(root + QStringLiteral("/file.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        for (QString &option : options)
            option.replace(QLatin1String("%1"), root);
        // A workload that takes seconds to prepare: checked after it, the message would come late.
        const QStringList arguments = QStringList{QStringLiteral("run"), QStringLiteral("--servers"), server.label,
                                                  QStringLiteral("--workload"), QStringLiteral("ecommerce"),
                                                  QStringLiteral("--events"), QStringLiteral("20000000")} + options;
        QElapsedTimer timer;
        timer.start();
        const VersusCli::Result r = cli.run(arguments, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus run: ") + expected.replace(QLatin1String("%1"), root) + QLatin1Char('\n'));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(cli.leftoverDirs().isEmpty());
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/charts")));
    }

    // Root may write anywhere: the child then runs as nobody, for whom the folder is read-only.
    void aReadOnlyExportDirIsRefusedFirst()
    {
        QTemporaryDir outside(QDir::tempPath() + QStringLiteral("/versus-readonly-XXXXXX"));
        QVERIFY(QFile::setPermissions(outside.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                          | QFileDevice::ReadOther | QFileDevice::ExeOther));
        const QString charts = outside.filePath(QStringLiteral("charts"));
        QVERIFY(QDir().mkpath(charts));
        QVERIFY(::chmod(QFile::encodeName(charts).constData(), 0555) == 0);
        VersusCli cli;
        if (::geteuid() == 0) {
            cli.setChildModifier([] {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(99);
            });
        }
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("ecommerce"),
                                             QStringLiteral("--events"), QStringLiteral("20000000"),
                                             QStringLiteral("--export-dir"), charts}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("versus run: --export-dir: cannot write into the folder %1: Permission denied\n").arg(charts)),
                 r.describe());
        QVERIFY(everyEntry(charts).isEmpty());
        ::chmod(QFile::encodeName(charts).constData(), 0755);
    }

    // ---- item 17: a misbehaving endpoint cannot hang the start ----

    void misbehavingEndpointIsRefused_data()
    {
        QTest::addColumn<int>("behaviour");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a reply line with no end") << int(MisbehavingServer::EndlessLine)
                                                  << QStringLiteral("INFO: a reply line passed 1048576 bytes without an end; "
                                                                    "the connection is closed");
        QTest::newRow("a bulk string announcing 4 GB") << int(MisbehavingServer::HugeBulkString)
                                                       << QStringLiteral("INFO: the reply passed 16777216 bytes, more than Versus "
                                                                         "accepts for one reply; the connection is closed");
        QTest::newRow("one byte every 50 ms") << int(MisbehavingServer::Trickle) << QStringLiteral("INFO: timed out after 3000 ms");
    }

    void misbehavingEndpointIsRefused()
    {
        QFETCH(int, behaviour);
        QFETCH(QString, reason);
        MisbehavingServer server{MisbehavingServer::Behaviour(behaviour)};
        const QString where = QStringLiteral("127.0.0.1:%1").arg(server.port());
        VersusCli cli;
        QElapsedTimer timer;
        timer.start();
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), where, QStringLiteral("--allow-flush"),
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
                                             QStringLiteral("keys=10")}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus run: --servers: %1 did not answer like a Valkey or Redis server (%1: %2)\n").arg(where, reason));
        QVERIFY2(timer.elapsed() < 15000, qPrintable(QString::number(timer.elapsed())));
    }

    void ctrlCWhileAnEndpointTrickles()
    {
        MisbehavingServer server{MisbehavingServer::Trickle};
        const QString where = QStringLiteral("127.0.0.1:%1").arg(server.port());
        VersusCli cli;
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), where, QStringLiteral("--allow-flush"), QStringLiteral("--workload"),
                   QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")});
        QVERIFY(cli.waitStarted());
        QTRY_VERIFY_WITH_TIMEOUT(server.connections() >= 2, 10000);   // the probe is reading the trickle
        QElapsedTimer timer;
        timer.start();
        cli.signal(SIGINT);
        const VersusCli::Result r = cli.finish(30000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
        QVERIFY2(r.err.endsWith(QLatin1String("versus run: interrupted before any server started\n")), r.describe());
        QVERIFY2(timer.elapsed() < 4500, qPrintable(QString::number(timer.elapsed())));
    }

    // ---- item 20: SIGINT, SIGTERM and SIGHUP stop cleanly, in preparation and mid-replay ----

    void signalDuringPreparation_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }

    void signalDuringPreparation()
    {
        QFETCH(int, signalNumber);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("partial.json"));
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"), QStringLiteral("ecommerce"),
                   QStringLiteral("--events"), QStringLiteral("50000000"), QStringLiteral("--out"), bundlePath});
        QVERIFY(cli.waitStarted());
        QTest::qWait(1500);
        QVERIFY2(cli.running() && !cli.errSoFar().contains(QLatin1String("started on")), qPrintable(cli.errSoFar()));
        QElapsedTimer timer;
        timer.start();
        cli.signal(signalNumber);
        const VersusCli::Result r = cli.finish(60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(r.err.contains(QLatin1String("versus run: interrupted before any server started\n")), r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QVERIFY(!bundle->complete);
        QCOMPARE(bundle->workload.name, QStringLiteral("ecommerce"));
        QVERIFY(bundle->servers.empty());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
    }

    void signalMidReplay_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }

    void signalMidReplay()
    {
        QFETCH(int, signalNumber);
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("partial.json"));
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                   QStringLiteral("--set"), QStringLiteral("keys=200000"), QStringLiteral("--out"), bundlePath});
        QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying  *\\d+ ev/s"))), qPrintable(cli.errSoFar()));
        QTRY_COMPARE_WITH_TIMEOUT(int(cli.serverPids().size()), 1, 30000);
        cli.signal(signalNumber);
        const VersusCli::Result r = cli.finish(60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, r.describe());
        for (const auto &entry : cli.serverPids())
            QVERIFY2(!ServerTestHelpers::processAlive(entry.second), qPrintable(entry.first));
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QVERIFY(!bundle->complete);
        QCOMPARE(int(bundle->servers.size()), 1);
    }

    // A write SIGKILLed half way leaves its temporary file; the next write to that path removes
    // it, and nothing else: not another path's, not a user's file of a similar name.
    void aKilledWritesTempFileIsRemovedByTheNextWrite()
    {
        VersusCli cli;
        const QString folder = cli.path(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(folder));
        const QString target = folder + QStringLiteral("/events.jsonl");
        cli.start({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("50000000"), QStringLiteral("--out"), target});
        QVERIFY(cli.waitStarted());
        const auto tempFiles = [&folder] {
            return QDir(folder).entryList({QStringLiteral("events.jsonl.versus-tmp.*")}, QDir::Files | QDir::Hidden);
        };
        QTRY_VERIFY_WITH_TIMEOUT(!tempFiles().isEmpty() && QFileInfo(folder + QLatin1Char('/') + tempFiles().first()).size() > (1 << 20), 30000);
        cli.signal(SIGKILL);
        const VersusCli::Result killed = cli.finish(30000);
        QVERIFY(killed.crashed);
        QCOMPARE(tempFiles().size(), 1);
        const QString stale = tempFiles().first();
        QVERIFY(!QFileInfo::exists(target));
        // Beside it: a user's file of a similar name and another path's temporary file.
        for (const QString &name : {QStringLiteral("events.jsonl.backup"), QStringLiteral("other.jsonl.versus-tmp.Ab12Cd")}) {
            QFile file(folder + QLatin1Char('/') + name);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QTest::qWait(20);   // the next write starts after every file here was last written
        const VersusCli::Result next = cli.run({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("100"),
                                                QStringLiteral("--out"), target}, 60000);
        QVERIFY2(next.finished && next.exitCode == 0, next.describe());
        QCOMPARE(readFile(target).count('\n'), 100);
        QCOMPARE(everyEntry(folder), (QStringList{QStringLiteral("events.jsonl"), QStringLiteral("events.jsonl.backup"),
                                                  QStringLiteral("other.jsonl.versus-tmp.Ab12Cd")}));
        QVERIFY(!everyEntry(folder).contains(stale));
    }
};

QTEST_GUILESS_MAIN(FaultsFilesTest)
#include "tst_faults_files.moc"
