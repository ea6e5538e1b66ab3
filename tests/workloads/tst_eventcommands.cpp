// EventCommands keeps its commands' strings across clear(), and the sources that fill one
// event after event (hash-ttl, the three capture formats) allocate nothing once it has grown:
// the replay's producer reads millions of events through one EventCommands.

#include "hashttlworkload.h"
#include "workloadfactory.h"

#include <QTemporaryDir>
#include "allocationcounter.h"

#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <new>

namespace {

QStringList listOf(const EventCommands &event)
{
    QStringList commands;
    for (const WorkloadCommand &command : event.commands) {
        QStringList args;
        for (const std::string &arg : command.args)
            args << QString::fromStdString(arg);
        commands << QString::fromStdString(command.type) + QLatin1Char(':') + args.join(QLatin1Char(' '));
    }
    return commands;
}

// Allocations made while reading `events` events, after `warmUp` events grew the buffers.
long long allocationsReading(CommandSource &source, int warmUp, int events, long long *commands)
{
    EventCommands event;
    for (int i = 0; i < warmUp; ++i) {
        event.clear();
        if (!source.next(event))
            return -1;
    }
    *commands = 0;
    AllocationCounter::start();
    for (int i = 0; i < events; ++i) {
        event.clear();
        if (!source.next(event))
            break;
        *commands += static_cast<long long>(event.commands.size());
    }
    return AllocationCounter::stop();
}

// A capture of `count` commands in one of the three formats, the arguments' sizes varying
// from command to command (but with a bounded longest), the arity too.
QByteArray capture(const QString &format, int count)
{
    QByteArray text;
    for (int i = 0; i < count; ++i) {
        const QByteArray key = "customer:profile:" + QByteArray::number(i % 977);
        const QByteArray value = QByteArray(10 + (i * 7) % 40, char('a' + i % 26));
        QList<QByteArray> args;
        if (i % 3 == 0)
            args = {"SET", key, value, "EX", "900"};
        else if (i % 3 == 1)
            args = {"HSET", key + ":h", "field-" + QByteArray::number(i % 13), value};
        else
            args = {"ZREMRANGEBYSCORE", key + ":z", "-inf", QByteArray::number(i)};
        if (format == QLatin1String("resp")) {
            text += '*' + QByteArray::number(args.size()) + "\r\n";
            for (const QByteArray &arg : args)
                text += '$' + QByteArray::number(arg.size()) + "\r\n" + arg + "\r\n";
        } else if (format == QLatin1String("monitor")) {
            text += "1733000000." + QByteArray::number(100000 + i) + " [0 127.0.0.1:50000]";
            for (const QByteArray &arg : args)
                text += " \"" + arg + '"';
            text += '\n';
        } else {
            text += args.join(' ') + '\n';
        }
    }
    return text;
}

} // namespace

class TestEventCommands : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clearKeepsTheStrings()
    {
        EventCommands event;
        const std::string longKey(200, 'k');
        event.add("a", {"SET", longKey, "value"});
        event.add("b", {"HSET", longKey, "field", "value"});
        const char *const keyMemory = event.commands[0].args[1].data();
        event.clear();
        QVERIFY(event.commands.empty());
        // Fewer arguments, then more: each command comes back with the strings it had.
        event.add("c", {"GET", "short"});
        event.add("d", {"ZADD", "z", "1", "m", "2", "n"});
        QCOMPARE(listOf(event), QStringList({"c:GET short", "d:ZADD z 1 m 2 n"}));
        event.clear();
        event.add("e", {"SET", longKey, "v"});
        QCOMPARE(event.commands[0].args[1].data(), keyMemory);
        QCOMPARE(listOf(event), QStringList({QStringLiteral("e:SET ") + QString::fromStdString(longKey) + " v"}));
        // add() without arguments hands out a kept command as it was.
        event.clear();
        WorkloadCommand &kept = event.add();
        QCOMPARE(kept.type, std::string("e"));
        QCOMPARE(int(kept.args.size()), 3);
    }

    void hashTtlAllocatesNothingOnceGrown()
    {
        HashTtlParameters parameters;
        parameters.keys = 3000;
        parameters.valueSize = 300;
        Outcome<std::unique_ptr<CommandSource>> source = HashTtlWorkload(parameters).open();
        QVERIFY(source);
        long long commands = 0;
        QCOMPARE(allocationsReading(*source.value(), 100, 2000, &commands), 0LL);
        QCOMPARE(commands, 8000LL);
    }

    void capturesAllocateNothingOnceGrown_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("RESP") << QStringLiteral("resp");
        QTest::newRow("MONITOR") << QStringLiteral("monitor");
        QTest::newRow("command file") << QStringLiteral("commands");
    }

    void capturesAllocateNothingOnceGrown()
    {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("capture.") + (format == QLatin1String("resp") ? "resp" : "txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(capture(format, 6000));
        file.close();
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(path, {}, QString(), 0, false);
        QVERIFY2(workload, qPrintable(workload ? QString() : workload.error()));
        Outcome<std::unique_ptr<CommandSource>> source = workload.value()->open();
        QVERIFY2(source, qPrintable(source ? QString() : source.error()));
        long long commands = 0;
        QCOMPARE(allocationsReading(*source.value(), 1000, 4000, &commands), 0LL);
        QCOMPARE(commands, 4000LL);
    }
};

QTEST_GUILESS_MAIN(TestEventCommands)
#include "tst_eventcommands.moc"
