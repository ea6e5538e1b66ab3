// Captured traffic: valkey-cli quoting, MONITOR lines, raw RESP, refused commands, and clear
// errors for malformed, empty, binary and oversized input.

#include "captureparser.h"
#include "captureworkload.h"
#include "workloadfactory.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/resource.h>

namespace {

QStringList toList(const std::vector<std::string> &args)
{
    QStringList list;
    for (const std::string &arg : args)
        list << QString::fromLatin1(QByteArray::fromStdString(arg).toPercentEncoding(" /:*{}"));
    return list;
}

QStringList replay(const Workload &workload, QString *error = nullptr, std::map<std::string, long long> *skipped = nullptr)
{
    Outcome<std::unique_ptr<CommandSource>> source = workload.open();
    if (!source) {
        if (error)
            *error = source.error();
        return {};
    }
    QStringList commands;
    EventCommands event;
    while (source.value()->next(event)) {
        for (const WorkloadCommand &command : event.commands) {
            if (command.type != "capture")
                return {QStringLiteral("wrong type")};
            commands << toList(command.args).join(QLatin1Char(' '));
        }
    }
    if (error)
        *error = source.value()->error();
    if (skipped)
        *skipped = source.value()->skipped();
    return commands;
}

// The peak resident memory of this process so far, in KiB.
long peakMemoryKiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

QString writeFile(QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace

class TestCaptureParser : public QObject {
    Q_OBJECT

private slots:
    void splitsCommandLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QStringList>("args");    // percent-encoded
        QTest::addColumn<QString>("error");
        QTest::newRow("bare words") << QByteArray("SET  key\tvalue ") << QStringList{"SET", "key", "value"} << "";
        QTest::newRow("double quotes") << QByteArray("SET k \"a b\"") << QStringList{"SET", "k", "a b"} << "";
        QTest::newRow("escapes") << QByteArray("SET k \"q\\\"b\\\\n\\n\\r\\t\\a\\b\\x00\\xff\\z\"")
                                 << QStringList{"SET", "k", "q%22b%5Cn%0A%0D%09%07%08%00%FFz"} << "";
        QTest::newRow("single quotes") << QByteArray("SET k 'it\\'s \"raw\" \\n'") << QStringList{"SET", "k", "it%27s %22raw%22 %5Cn"} << "";
        QTest::newRow("empty string") << QByteArray("SET k \"\"") << QStringList{"SET", "k", ""} << "";
        QTest::newRow("quote inside a word") << QByteArray("SET k ab\"c d\"") << QStringList{"SET", "k", "abc d"} << "";
        QTest::newRow("short hex is a letter") << QByteArray("SET k \"\\x4\"") << QStringList{"SET", "k", "x4"} << "";
        QTest::newRow("unbalanced double") << QByteArray("SET k \"abc") << QStringList{} << "unbalanced double quotes";
        QTest::newRow("unbalanced single") << QByteArray("SET k 'abc") << QStringList{} << "unbalanced single quotes";
        QTest::newRow("quote then text") << QByteArray("SET k \"a\"b") << QStringList{} << "closing quote must be followed by a space";
        QTest::newRow("binary outside quotes") << QByteArray("SET k a\x01" "b", 9) << QStringList{} << "binary data outside quotes at column 8";
    }
    void splitsCommandLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        std::vector<std::string> parsed;
        std::string problem;
        const bool ok = splitCommandLine(std::string_view(line.constData(), size_t(line.size())), parsed, problem);
        QCOMPARE(ok, error.isEmpty());
        QCOMPARE(QString::fromStdString(problem), error);
        if (ok)
            QCOMPARE(toList(parsed), args);
    }

    void parsesMonitorLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("tcp client") << QByteArray("1700000000.123456 [0 127.0.0.1:6379] \"SET\" \"k\" \"v\\x00\"")
                                    << int(MonitorLineKind::Command) << QStringList{"SET", "k", "v%00"} << "";
        QTest::newRow("lua") << QByteArray("1700000000.1 [3 lua] \"GET\" \"x\"") << int(MonitorLineKind::Command) << QStringList{"GET", "x"} << "";
        QTest::newRow("unix socket") << QByteArray("1700000000.123456 [0 unix:/tmp/s.sock] \"PING\"")
                                     << int(MonitorLineKind::Command) << QStringList{"PING"} << "";
        QTest::newRow("ok banner") << QByteArray("OK") << int(MonitorLineKind::Ignored) << QStringList{} << "";
        QTest::newRow("blank") << QByteArray("  ") << int(MonitorLineKind::Ignored) << QStringList{} << "";
        QTest::newRow("no timestamp") << QByteArray("\"SET\" \"k\" \"v\"") << int(MonitorLineKind::Malformed) << QStringList{}
                                      << "expected '<timestamp> [<db> <client>]' at the start of a MONITOR line, got '\"SET\" \"k\" \"v\"'";
        QTest::newRow("no bracket end") << QByteArray("1700000000.1 [0 127.0.0.1:1 \"SET\"") << int(MonitorLineKind::Malformed)
                                        << QStringList{} << "missing ']' after the client address";
        QTest::newRow("bare args") << QByteArray("1700000000.1 [0 127.0.0.1:1] SET k") << int(MonitorLineKind::Malformed)
                                   << QStringList{} << "MONITOR arguments must be double-quoted";
        QTest::newRow("cut quote") << QByteArray("1700000000.1 [0 127.0.0.1:1] \"SET\" \"k") << int(MonitorLineKind::Malformed)
                                   << QStringList{} << "unbalanced double quotes";
    }
    void parsesMonitorLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, kind);
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        std::vector<std::string> parsed;
        std::string problem;
        QCOMPARE(int(parseMonitorLine(std::string_view(line.constData(), size_t(line.size())), parsed, problem)), kind);
        QCOMPARE(QString::fromStdString(problem), error);
        if (kind == int(MonitorLineKind::Command))
            QCOMPARE(toList(parsed), args);
    }

    void parsesResp()
    {
        const std::string stream("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\na\r\n\r\n*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET", 52);
        std::vector<std::string> args;
        size_t consumed = 0;
        std::string error;
        QCOMPARE(int(parseRespCommand(stream, args, consumed, error, 1024)), int(RespParse::Complete));
        QCOMPARE(toList(args), QStringList({"SET", "k", "a%0D%0A"}));
        QCOMPARE(consumed, size_t(29));
        const std::string rest = stream.substr(consumed);
        QCOMPARE(int(parseRespCommand(rest, args, consumed, error, 1024)), int(RespParse::Complete));
        QCOMPARE(toList(args), QStringList({"PING"}));
        QCOMPARE(int(parseRespCommand(rest.substr(consumed), args, consumed, error, 1024)), int(RespParse::NeedMore));
        QCOMPARE(int(parseRespCommand("+OK\r\n", args, consumed, error, 1024)), int(RespParse::Malformed));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("expected '*', got '+'"));
        QCOMPARE(int(parseRespCommand("*1\r\n$2000\r\n", args, consumed, error, 1024)), int(RespParse::Malformed));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("bulk string of 2000 bytes exceeds the limit of 1024"));
        QCOMPARE(int(parseRespCommand("*1\r\n$1\r\nab\r\n", args, consumed, error, 1024)), int(RespParse::Malformed));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("bulk string not followed by CRLF"));
        QCOMPARE(int(parseRespCommand("*x\r\n", args, consumed, error, 1024)), int(RespParse::Malformed));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("invalid length after '*'"));
    }

    void refusesDangerousCommands_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("label");
        QTest::newRow("flushall") << QStringList{"flushall", "async"} << "FLUSHALL";
        QTest::newRow("flushdb") << QStringList{"FLUSHDB"} << "FLUSHDB";
        QTest::newRow("shutdown") << QStringList{"SHUTDOWN", "NOSAVE"} << "SHUTDOWN";
        QTest::newRow("config set") << QStringList{"config", "set", "maxmemory", "1"} << "CONFIG SET";
        QTest::newRow("config get") << QStringList{"CONFIG", "GET", "*"} << "CONFIG GET";
        QTest::newRow("monitor") << QStringList{"MONITOR"} << "MONITOR";
        QTest::newRow("debug") << QStringList{"DEBUG", "SLEEP", "1"} << "DEBUG SLEEP";
        QTest::newRow("select") << QStringList{"SELECT", "2"} << "SELECT";
        QTest::newRow("save") << QStringList{"SAVE"} << "SAVE";
        QTest::newRow("bgsave") << QStringList{"BGSAVE"} << "BGSAVE";
        QTest::newRow("bgrewriteaof") << QStringList{"BGREWRITEAOF"} << "BGREWRITEAOF";
        QTest::newRow("replicaof") << QStringList{"REPLICAOF", "h", "1"} << "REPLICAOF";
        QTest::newRow("slaveof") << QStringList{"SLAVEOF", "NO", "ONE"} << "SLAVEOF";
        QTest::newRow("cluster") << QStringList{"CLUSTER", "RESET"} << "CLUSTER RESET";
        QTest::newRow("script flush") << QStringList{"SCRIPT", "FLUSH"} << "SCRIPT FLUSH";
        QTest::newRow("function delete") << QStringList{"FUNCTION", "DELETE", "lib"} << "FUNCTION DELETE";
        QTest::newRow("acl setuser") << QStringList{"ACL", "SETUSER", "bob"} << "ACL SETUSER";
        QTest::newRow("module") << QStringList{"MODULE", "LOAD", "x.so"} << "MODULE LOAD";
        QTest::newRow("psync") << QStringList{"PSYNC", "?", "-1"} << "PSYNC";
        QTest::newRow("failover") << QStringList{"FAILOVER"} << "FAILOVER";
        QTest::newRow("client kill") << QStringList{"CLIENT", "KILL", "ID", "1"} << "CLIENT KILL";
        QTest::newRow("hello") << QStringList{"HELLO", "3"} << "HELLO";
        QTest::newRow("blpop") << QStringList{"BLPOP", "q", "0"} << "BLPOP";
        QTest::newRow("xread block") << QStringList{"XREAD", "block", "0", "STREAMS", "s", "$"} << "XREAD BLOCK";
        QTest::newRow("subscribe") << QStringList{"SUBSCRIBE", "ch"} << "SUBSCRIBE";
        QTest::newRow("set is fine") << QStringList{"SET", "config", "flushall"} << "";
        QTest::newRow("script load is fine") << QStringList{"SCRIPT", "LOAD", "return 1"} << "";
        QTest::newRow("xread is fine") << QStringList{"XREAD", "STREAMS", "s", "0"} << "";
    }
    void refusesDangerousCommands()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, label);
        std::vector<std::string> args;
        for (const QString &arg : command)
            args.push_back(arg.toStdString());
        QCOMPARE(QString::fromStdString(refusedCommand(args)), label);
    }

    void detectsFormats_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("format");   // "events", a format name, or "error: …"
        QTest::newRow("resp") << QByteArray("*1\r\n$4\r\nPING\r\n") << "resp";
        QTest::newRow("events") << QByteArray("\n{\"event_id\":\"e\"}\n") << "events";
        QTest::newRow("monitor") << QByteArray("OK\n1700000000.1 [0 127.0.0.1:1] \"PING\"\n") << "monitor";
        QTest::newRow("commands") << QByteArray("# c\nSET a 1\n") << "commands";
        QTest::newRow("number first is a command file") << QByteArray("12345 x\n") << "commands";
        QTest::newRow("damaged first MONITOR line")
            << QByteArray("OK\n17000\xff\x01garbage\n1700000000.1 [0 127.0.0.1:1] \"SET\" \"a\" \"1\"\n"
                          "1700000000.2 [0 127.0.0.1:1] \"GET\" \"a\"\n")
            << "monitor";
        QTest::newRow("one MONITOR-like line among commands")
            << QByteArray("1700000000.1 [0 127.0.0.1:1] \"SET\"\nSET a 1\nGET a\n") << "commands";
        QTest::newRow("a line cut by the head does not vote")
            << QByteArray("SET a 1\n1700000000.1 [0 127.0.0.1:1] \"SET\"\n1700000000.2 [0 1") << "commands";
        QTest::newRow("empty") << QByteArray() << "error: the file is empty";
        QTest::newRow("blank") << QByteArray(" \n\n") << "error: the file holds only white space";
        QTest::newRow("binary") << QByteArray("SET a\0b", 7)
                                << "error: binary data at byte 5 (expected events as JSON Lines, MONITOR output, a command "
                                   "file, or RESP starting with '*')";
    }
    void detectsFormats()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, format);
        CaptureFormat detected = CaptureFormat::CommandFile;
        bool isEvents = false;
        std::string error;
        const bool ok = detectCaptureFormat(std::string_view(head.constData(), size_t(head.size())), detected, isEvents, error);
        const QString result = !ok ? QStringLiteral("error: ") + QString::fromStdString(error)
            : isEvents           ? QStringLiteral("events")
                                 : QString::fromLatin1(captureFormatName(detected));
        QCOMPARE(result, format);
    }

    void replaysMonitorOutput()
    {
        CaptureWorkload workload(QStringLiteral(VERSUS_FIXTURES "/workloads/monitor.txt"), CaptureFormat::Monitor, false);
        QString error;
        std::map<std::string, long long> skipped;
        QCOMPARE(replay(workload, &error, &skipped),
                 QStringList({"SET k v%00", "HSET user:1 name say %22hi%22%0A", "INCRBY counter 5",
                              "set path C:%5Ctmp%09%07%08%0D"}));
        QCOMPARE(error, QString());
        QCOMPARE(skipped, (std::map<std::string, long long>{{"CONFIG SET", 1}, {"DEBUG SLEEP", 1}, {"FLUSHALL", 1}}));
        const WorkloadInfo description = workload.describe();
        QCOMPARE(description.name, QStringLiteral("capture"));
        QCOMPARE(description.events, 4LL);
        QCOMPARE(description.commands, 4LL);
        QCOMPARE(description.types, QStringList{"capture"});
        QCOMPARE(description.parameters.at(QStringLiteral("format")), QStringLiteral("monitor"));
        QCOMPARE(description.parameters.at(QStringLiteral("skipped")), QStringLiteral("3"));
        QCOMPARE(workload.skippedInPass().size(), size_t(3));
    }

    void replaysCommandFiles()
    {
        Outcome<std::shared_ptr<Workload>> workload =
            makeWorkload(QStringLiteral(VERSUS_FIXTURES "/workloads/commands.txt"), {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        QString error;
        std::map<std::string, long long> skipped;
        QCOMPARE(replay(*workload.value(), &error, &skipped),
                 QStringList({"SET greeting hello world", "SET quote it%27s", "RPUSH list a b c d AB", "INCR visits"}));
        QCOMPARE(skipped, (std::map<std::string, long long>{{"FLUSHDB", 1}, {"SHUTDOWN", 1}}));
        QCOMPARE(workload.value()->describe().parameters.at(QStringLiteral("format")), QStringLiteral("commands"));
    }

    void malformedLineIsAnErrorOrSkipped()
    {
        const QString path = QStringLiteral(VERSUS_FIXTURES "/workloads/commands-malformed.txt");
        Outcome<std::shared_ptr<Workload>> strict = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY(!strict.ok());
        QCOMPARE(strict.error(), QStringLiteral("commands-malformed.txt:2: unbalanced double quotes"));

        Outcome<std::shared_ptr<Workload>> lenient = makeWorkload(path, {}, QString(), 0, true);
        QVERIFY2(lenient.ok(), qPrintable(lenient.error()));
        std::map<std::string, long long> skipped;
        QCOMPARE(replay(*lenient.value(), nullptr, &skipped), QStringList({"SET a 1", "SET c 3"}));
        QCOMPARE(skipped, (std::map<std::string, long long>{{"malformed line", 1}}));
    }

    // A MONITOR capture whose first data line is damaged is still read as MONITOR output:
    // the damaged line is the one skipped, and valkey-cli's "OK" is never sent.
    void damagedFirstMonitorLineIsSkippedNotMisread()
    {
        QTemporaryDir dir;
        QByteArray content = "OK\n1700000000.\x01\x02 [0 127.0.0.1:1] \"SET\" \"damaged\n";
        for (int i = 0; i < 150; ++i)
            content += "1700000000." + QByteArray::number(i) + " [0 127.0.0.1:5000] \"SET\" \"k" + QByteArray::number(i)
                + "\" \"v\"\n";
        const QString path = writeFile(dir, QStringLiteral("monitor.txt"), content);
        Outcome<std::shared_ptr<Workload>> strict = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY(!strict.ok());
        QCOMPARE(strict.error(), QStringLiteral("monitor.txt:2: expected '<timestamp> [<db> <client>]' at the start of a "
                                                "MONITOR line, got '1700000000.\\x01\\x02 [0 127.0.0.1:1] \"SET\" \"dam...'"));
        Outcome<std::shared_ptr<Workload>> lenient = makeWorkload(path, {}, QString(), 0, true);
        QVERIFY2(lenient.ok(), qPrintable(lenient.error()));
        QCOMPARE(lenient.value()->describe().parameters.at(QStringLiteral("format")), QStringLiteral("monitor"));
        std::map<std::string, long long> skipped;
        const QStringList sent = replay(*lenient.value(), nullptr, &skipped);
        QCOMPARE(sent.size(), 150);
        QCOMPARE(sent.front(), QStringLiteral("SET k0 v"));
        QCOMPARE(skipped, (std::map<std::string, long long>{{"malformed line", 1}}));
    }

    void commandFileSkipsValkeyCliOkHeader()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("c.txt"), "OK\nSET a 1\nOK\n");
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        // Only the first line is valkey-cli's reply; a later OK is the file's own command.
        QCOMPARE(replay(*workload.value()), QStringList({"SET a 1", "OK"}));
    }

    // --lenient tolerates a few damaged lines, never a file that is mostly not what it seems.
    void lenientFailsWhenMoreThanASmallShareIsMalformed()
    {
        QTemporaryDir dir;
        QByteArray content;
        for (int i = 0; i < 197; ++i)
            content += "SET k" + QByteArray::number(i) + " v\n";
        content += "SET \"a\nSET \"b\n";   // 2 of 199 lines: 1% of 199 rounds down to one line
        const QString path = writeFile(dir, QStringLiteral("c.txt"), content);
        Outcome<std::shared_ptr<Workload>> refused = makeWorkload(path, {}, QString(), 0, true);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error(), QStringLiteral("c.txt: 2 of 199 command lines are malformed (first at line 198: "
                                                 "unbalanced double quotes); --lenient skips at most 1% of the lines or "
                                                 "one line, so this does not look like a command file"));
        const QString fine = writeFile(dir, QStringLiteral("d.txt"), content + "SET x y\n");   // 2 of 200
        Outcome<std::shared_ptr<Workload>> accepted = makeWorkload(fine, {}, QString(), 0, true);
        QVERIFY2(accepted.ok(), qPrintable(accepted.error()));
        QCOMPARE(accepted.value()->describe().events, 198LL);
    }

    void replaysRespAndStreamsIdentically()
    {
        QTemporaryDir dir;
        QByteArray resp;
        for (int i = 0; i < 3000; ++i) {
            const QByteArray key = "key:" + QByteArray::number(i);
            const QByteArray value(i % 50, char('a' + i % 26));
            resp += "*3\r\n$3\r\nSET\r\n$" + QByteArray::number(key.size()) + "\r\n" + key + "\r\n$"
                + QByteArray::number(value.size()) + "\r\n" + value + "\r\n";
        }
        resp += "*1\r\n$8\r\nFLUSHALL\r\n";
        const QString path = writeFile(dir, QStringLiteral("capture.resp"), resp);
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        QCOMPARE(workload.value()->describe().events, 3000LL);
        QCOMPARE(workload.value()->describe().parameters.at(QStringLiteral("format")), QStringLiteral("resp"));
        // Re-encoding what was read gives back the file, minus the refused command.
        for (int pass = 0; pass < 2; ++pass) {
            Outcome<std::unique_ptr<CommandSource>> source = workload.value()->open();
            QVERIFY(source.ok());
            std::string encoded;
            EventCommands event;
            while (source.value()->next(event))
                for (const WorkloadCommand &command : event.commands)
                    appendResp(command, encoded);
            QCOMPARE(source.value()->error(), QString());
            QCOMPARE(QByteArray::fromStdString(encoded), resp.left(resp.size() - 18));
            QCOMPARE(source.value()->skipped(), (std::map<std::string, long long>{{"FLUSHALL", 1}}));
        }
    }

    void badInputGivesClearErrors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("error");   // after "<path>: " or "<name>"
        QTest::newRow("empty file") << QByteArray() << "%1: the file is empty";
        QTest::newRow("binary garbage") << QByteArray("\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00", 10)
                                        << "%1: binary data at byte 7 (expected events as JSON Lines, MONITOR output, a "
                                           "command file, or RESP starting with '*')";
        QTest::newRow("not a command") << QByteArray("SET a 1\n%%% x\n") << "f:2: '%%%' is not a command name";
        QTest::newRow("10 MB line") << (QByteArray("SET k ") + QByteArray(10 * 1024 * 1024, 'x') + "\n")
                                    << "f:1: line longer than 4194304 bytes";
        QTest::newRow("truncated resp") << QByteArray("*2\r\n$3\r\nGET\r\n$5\r\nab")
                                        << "f: command 1 at byte 0: the file ends inside the command";
        QTest::newRow("resp garbage") << QByteArray("*1\r\n$4\r\nPING\r\n?junk")
                                      << "f: command 2 at byte 14: expected '*', got '?'";
        QTest::newRow("only refused") << QByteArray("FLUSHALL\nCONFIG SET a b\n") << "%1: no command to replay (2 skipped)";
        QTest::newRow("events with a bad line") << QByteArray("{\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":\"s\",\"session_id\":\"x\",\"type\":\"page_view\"}\n{\"event_id\":\"e2\"\n")
                                                << "f:2: invalid JSON at column 17: syntax error while parsing object - unexpected end of input; expected '}'";
    }
    void badInputGivesClearErrors()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("f"), content);
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY(!workload.ok());
        QCOMPARE(workload.error(), error.contains(QStringLiteral("%1")) ? error.arg(path) : error);
    }

    // More white space before the first command than the 64 KiB the format is told from: the
    // file is read past it (before, "the file holds only white space"), in every format.
    void whiteSpaceBeforeTheFirstCommandIsSkipped_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QStringList>("commands");
        QTest::newRow("70,000 blank lines, a command file") << QByteArray(70000, '\n') + "SET k v\nGET k\n"
                                                            << QStringLiteral("commands") << QStringList{"SET k v", "GET k"};
        QTest::newRow("spaces, tabs and CRLF, MONITOR output")
            << QByteArray(" \t\r\n").repeated(20000) + "OK\n1700000000.000001 [0 127.0.0.1:5000] \"SET\" \"k\" \"v\"\n"
            << QStringLiteral("monitor") << QStringList{"SET k v"};
        // A RESP capture starts with its first byte: white space before it makes it a text file,
        // as it did before.
        QTest::newRow("blank lines before RESP") << QByteArray(70000, '\n') + "*1\r\n$4\r\nPING\r\n" << QString()
                                                 << QStringList();
    }
    void whiteSpaceBeforeTheFirstCommandIsSkipped()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, format);
        QFETCH(QStringList, commands);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("c.txt"), content);
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        if (format.isEmpty()) {
            QVERIFY(!workload.ok());
            QCOMPARE(workload.error(), QStringLiteral("c.txt:70001: '*1' is not a command name"));
            return;
        }
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        QCOMPARE(workload.value()->describe().parameters.at(QStringLiteral("format")), format);
        QCOMPARE(replay(*workload.value()), commands);
    }

    void eventsAfterBlankLinesAreRead()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("e.jsonl"),
                                       QByteArray(70000, '\n')
                                           + "{\"event_id\":\"e\",\"timestamp\":1,\"shopper_id\":\"s\",\"session_id\":\"x\",\"type\":\"page_view\"}\n");
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        QCOMPARE(workload.value()->describe().events, 1LL);
    }

    void onlyWhiteSpaceIsRefused()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("w.txt"), QByteArray(" \t\r\n").repeated(50000));
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY(!workload.ok());
        QCOMPARE(workload.error(), QStringLiteral("%1: the file holds only white space").arg(path));
    }

    // 64 MiB of blank lines before the command: skipped a chunk at a time, never held whole.
    void whiteSpaceIsSkippedInBoundedMemory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.txt"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            const QByteArray blank(1 << 20, '\n');
            for (int i = 0; i < 64; ++i)
                QCOMPARE(file.write(blank), qint64(blank.size()));
            QVERIFY(file.write("SET k v\n") == 8);
        }
        const long before = peakMemoryKiB();
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        QCOMPARE(replay(*workload.value()), QStringList{"SET k v"});
        // The peak grew by far less than the file (a process peak: it can only hide growth, never
        // invent it).
        QVERIFY2(peakMemoryKiB() - before < 16 * 1024, qPrintable(QStringLiteral("%1 KiB").arg(peakMemoryKiB() - before)));
    }

    void unknownNamesAndParameters()
    {
        Outcome<std::shared_ptr<Workload>> unknown = makeWorkload(QStringLiteral("nosuch"), {}, QString(), 0, false);
        QCOMPARE(unknown.error(), QStringLiteral("workload 'nosuch': neither a built-in workload (ecommerce, hash-ttl) nor an existing file"));
        Outcome<std::shared_ptr<Workload>> parameter = makeWorkload(QStringLiteral(VERSUS_FIXTURES "/workloads/commands.txt"),
                                                                    {{QStringLiteral("keys"), QStringLiteral("5")}}, QString(), 0, false);
        QCOMPARE(parameter.error(), QStringLiteral("commands.txt: unknown parameter 'keys' (this workload takes none)"));
        Outcome<std::shared_ptr<Workload>> ecommerce = makeWorkload(QStringLiteral("ecommerce"),
                                                                    {{QStringLiteral("keys"), QStringLiteral("5")}}, QString(), 0, false);
        QCOMPARE(ecommerce.error(), QStringLiteral("ecommerce: unknown parameter 'keys' (valid: seed, shoppers, hash-tag)"));
    }
};

QTEST_GUILESS_MAIN(TestCaptureParser)
#include "tst_captureparser.moc"
