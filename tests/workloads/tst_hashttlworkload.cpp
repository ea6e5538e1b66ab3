// hash-ttl: exact commands of each pattern, deterministic values, and parameter validation.

#include "hashttlworkload.h"
#include "workloadfactory.h"

#include <QCryptographicHash>
#include <QtTest>

namespace {

std::vector<EventCommands> allEvents(const Workload &workload)
{
    std::vector<EventCommands> events;
    Outcome<std::unique_ptr<CommandSource>> source = workload.open();
    if (!source)
        return events;
    EventCommands event;
    while (source.value()->next(event))
        events.push_back(event);
    return events;
}

QStringList render(const EventCommands &event, const std::string &value)
{
    QStringList lines;
    for (const WorkloadCommand &command : event.commands) {
        QStringList args;
        for (const std::string &arg : command.args)
            args << (arg == value ? QStringLiteral("<value>") : QString::fromStdString(arg));
        lines << QString::fromStdString(command.type) + QLatin1Char('|') + args.join(QLatin1Char(' '));
    }
    return lines;
}

} // namespace

class TestHashTtlWorkload : public QObject {
    Q_OBJECT

private slots:
    void commandsOfEachPattern()
    {
        HashTtlParameters parameters;
        parameters.keys = 3;
        parameters.valueSize = 8;
        parameters.ttl = 60;
        HashTtlWorkload workload(parameters);
        const std::vector<EventCommands> events = allEvents(workload);
        QCOMPARE(events.size(), size_t(3));
        for (size_t i = 0; i < events.size(); ++i) {
            const std::string value = events[i].commands[0].args.back();
            QCOMPARE(value.size(), size_t(8));
            const QString key = QStringLiteral("user:%1").arg(i);
            QCOMPARE(render(events[i], value),
                     QStringList({"hsetex|HSETEX " + key + " EX 60 FIELDS 1 auth_token <value>",
                                  "set-ex|SET " + key + ":auth_token <value> EX 60",
                                  "hset-hexpire|HSET " + key + " auth_token <value>",
                                  "hset-hexpire|HEXPIRE " + key + " 60 FIELDS 1 auth_token"}));
        }
        QVERIFY(events[0].commands[0].args.back() != events[1].commands[0].args.back());
    }

    void describesOnePatternPass()
    {
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("hash-ttl"), {}, QString(), 0, false);
        QVERIFY2(workload.ok(), qPrintable(workload.error()));
        const WorkloadInfo description = workload.value()->describe();
        QCOMPARE(description.name, QStringLiteral("hash-ttl"));
        QCOMPARE(description.events, 20000LL);
        QCOMPARE(description.commands, 80000LL);
        QCOMPARE(description.types, QStringList({"hsetex", "set-ex", "hset-hexpire"}));
        QCOMPARE(description.parameters, (std::map<QString, QString>{{"keys", "20000"}, {"value-size", "120"}, {"ttl", "900"}}));
        QVERIFY(workload.value()->describe().typesTimedAlone);

        const std::vector<EventCommands> events = allEvents(*workload.value());
        QCOMPARE(events.size(), size_t(20000));
        for (const EventCommands &event : events)
            QCOMPARE(event.commands[1].args[2].size(), size_t(120));
    }

    void sameBytesEveryPass()
    {
        Outcome<std::shared_ptr<Workload>> workload =
            makeWorkload(QStringLiteral("hash-ttl"), {{QStringLiteral("keys"), QStringLiteral("500")}}, QString(), 0, false);
        QVERIFY(workload.ok());
        QByteArray hashes[2];
        for (QByteArray &result : hashes) {
            QCryptographicHash hash(QCryptographicHash::Sha256);
            std::string buffer;
            for (const EventCommands &event : allEvents(*workload.value()))
                for (const WorkloadCommand &command : event.commands)
                    appendResp(command, buffer);
            hash.addData(QByteArrayView(buffer.data(), qsizetype(buffer.size())));
            result = hash.result().toHex();
        }
        QCOMPARE(hashes[0], hashes[1]);
    }

    void parameters_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");   // empty: accepted
        QTest::newRow("keys") << "keys" << "100" << "";
        QTest::newRow("value-size") << "value-size" << "64" << "";
        QTest::newRow("ttl") << "ttl" << "3600" << "";
        QTest::newRow("unknown") << "size" << "1"
                                 << "hash-ttl: unknown parameter 'size' (valid: keys, value-size, ttl, hash-tag)";
        QTest::newRow("hash-tag") << "hash-tag" << "user" << "";
        QTest::newRow("bad hash-tag") << "hash-tag" << "shopper"
                                      << "hash-ttl: parameter hash-tag: expected user or none, got 'shopper'";
        QTest::newRow("not a number") << "keys" << "many"
                                      << "hash-ttl: parameter keys (number of keys per pattern): expected an integer from 1 to 100000000, got 'many'";
        QTest::newRow("zero ttl") << "ttl" << "0"
                                  << "hash-ttl: parameter ttl (seconds): expected an integer from 1 to 315360000, got '0'";
        QTest::newRow("huge value") << "value-size" << "2000000"
                                    << "hash-ttl: parameter value-size (bytes per value): expected an integer from 1 to 1048576, got '2000000'";
    }
    void parameters()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, error);
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("hash-ttl"), {{name, value}}, QString(), 0, false);
        QCOMPARE(workload.ok(), error.isEmpty());
        if (!error.isEmpty()) {
            QCOMPARE(workload.error(), error);
            return;
        }
        QCOMPARE(workload.value()->describe().parameters.at(name), value);
        QCOMPARE(workloadParameterNames(QStringLiteral("hash-ttl")), QStringList({"keys", "value-size", "ttl", "hash-tag"}));
    }

    // hash-tag=user: user i's keys carry {i}, so its hash and its string share a slot.
    void hashTagPerUser()
    {
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(
            QStringLiteral("hash-ttl"), {{QStringLiteral("keys"), QStringLiteral("2")}, {QStringLiteral("hash-tag"), QStringLiteral("user")}},
            QString(), 0, false);
        QVERIFY(workload.ok());
        const std::vector<EventCommands> events = allEvents(*workload.value());
        QCOMPARE(events.size(), size_t(2));
        QCOMPARE(events[1].commands[0].args[1], std::string("user:{1}"));
        QCOMPARE(events[1].commands[1].args[1], std::string("user:{1}:auth_token"));
        QCOMPARE(events[1].commands[2].args[1], std::string("user:{1}"));
        QCOMPARE(events[1].commands[3].args[1], std::string("user:{1}"));
        Outcome<std::shared_ptr<Workload>> plain = makeWorkload(
            QStringLiteral("hash-ttl"), {{QStringLiteral("keys"), QStringLiteral("2")}, {QStringLiteral("hash-tag"), QStringLiteral("none")}},
            QString(), 0, false);
        QCOMPARE(allEvents(*plain.value())[1].commands[1].args[1], std::string("user:1:auth_token"));
        QVERIFY(!plain.value()->describe().parameters.count(QStringLiteral("hash-tag")));
    }

    void valueSizeIsExact()
    {
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(
            QStringLiteral("hash-ttl"), {{QStringLiteral("keys"), QStringLiteral("2")}, {QStringLiteral("value-size"), QStringLiteral("1")}},
            QString(), 0, false);
        QVERIFY(workload.ok());
        for (const EventCommands &event : allEvents(*workload.value())) {
            QCOMPARE(event.commands[0].args[7].size(), size_t(1));
            QCOMPARE(event.commands[2].args[3], event.commands[0].args[7]);
        }
    }

    void eventsOptionIsRefused()
    {
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("hash-ttl"), {}, QString(), 100, false);
        QCOMPARE(workload.error(), QStringLiteral("hash-ttl: --events does not apply; use --set keys=N"));
    }
};

QTEST_GUILESS_MAIN(TestHashTtlWorkload)
#include "tst_hashttlworkload.moc"
