// The replay's batches, encoded one ahead while the one before is on the wire, are exactly
// what the replay sent before: for every workload, batch size, pass type and send filter, the
// same batches of the same bytes (RESP as written out here by hand, from events read into
// fresh EventCommands), the same counts; nothing is allocated in the steady state, a cancel
// stops the reading, a source's error is passed on, and large batches are not kept.

#include "batchencoder.h"
#include "hashttlworkload.h"
#include "replayaccess.h"
#include "respencoded.h"
#include "workloadfactory.h"

#include "allocationcounter.h"

#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <new>
#include <sys/resource.h>

namespace {

using TestResp::encoded;

long maxResidentMegabytes()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

// RESP as the protocol describes it, written independently of resp.cpp.
struct Batches {
    std::vector<std::string> resp;
    std::vector<std::vector<std::string>> names;
    long long events = 0;
    long long eventsSent = 0;
    std::map<std::string, long long> refused;
};

// What the replay sent before the producer: groups of `perBatch` events, the pass's commands
// of each group in one batch, groups without any skipped.
Batches expectedBatches(const Workload &workload, const EncodeOptions &options)
{
    Batches expected;
    std::unique_ptr<CommandSource> source = std::move(workload.open().value());
    for (bool more = true; more;) {
        std::string resp;
        std::vector<std::string> names;
        for (int i = 0; i < options.eventsPerBatch; ++i) {
            EventCommands event;   // fresh: nothing kept from the event before
            if (!source->next(event)) {
                more = false;
                break;
            }
            ++expected.events;
            bool any = false;
            for (const WorkloadCommand &command : event.commands) {
                if (!options.onlyType.empty() && command.type != options.onlyType)
                    continue;
                const std::string refused = options.filter ? options.filter->refusalOf(command.args) : std::string();
                if (!refused.empty()) {
                    ++expected.refused[refused];
                    continue;
                }
                resp += encoded(command.args);
                names.push_back(command.args.front());
                any = true;
            }
            expected.eventsSent += any ? 1 : 0;
        }
        if (!names.empty()) {
            expected.resp.push_back(resp);
            expected.names.push_back(names);
        }
    }
    return expected;
}

// As the replay takes them: whileWaiting() between next() and recycle(), as exchange() calls it.
Batches producedBatches(const Workload &workload, const EncodeOptions &options)
{
    Batches produced;
    std::unique_ptr<CommandSource> source = std::move(workload.open().value());
    EncodedBatches producer(*source, options);
    while (const EncodedBatch *batch = producer.next()) {
        producer.whileWaiting();
        produced.events += batch->events;
        produced.eventsSent += batch->eventsSent;
        for (const std::uint32_t label : batch->refused)
            ++produced.refused[producer.names()[label]];
        if (!batch->empty()) {
            produced.resp.push_back(batch->nodes.front().resp);
            std::vector<std::string> names;
            for (const std::uint32_t name : batch->nodes.front().names)
                names.push_back(producer.names()[name]);
            produced.names.push_back(names);
        }
        producer.recycle();
    }
    return produced;
}

// `events` events of one SET with a value of 4 MiB, copied rather than generated.
class LargeValueWorkload : public Workload {
public:
    explicit LargeValueWorkload(int events) : m_events(events) {}
    WorkloadInfo describe() const override { return {}; }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>(m_events));
    }

private:
    class Source : public CommandSource {
    public:
        explicit Source(int events) : m_events(events), m_value(size_t(4) << 20, 'v') {}
        bool next(EventCommands &out) override
        {
            if (m_next >= m_events)
                return false;
            out.add("large", {"SET", "large:" + std::to_string(m_next++ % 10), m_value});
            return true;
        }

    private:
        int m_events;
        int m_next = 0;
        std::string m_value;
    };
    int m_events;
};

// A source that fails after `good` events, as a file with a bad line does.
class FailingWorkload : public Workload {
public:
    explicit FailingWorkload(int good) : m_good(good) {}
    WorkloadInfo describe() const override { return {}; }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>(m_good));
    }

private:
    class Source : public CommandSource {
    public:
        explicit Source(int good) : m_good(good) {}
        bool next(EventCommands &out) override
        {
            if (m_next >= m_good) {
                m_error = QStringLiteral("events.jsonl:%1: not JSON").arg(m_next + 1);
                return false;
            }
            out.add("counter", {"INCR", "c:" + std::to_string(m_next++)});
            return true;
        }
        QString error() const override { return m_error; }

    private:
        int m_good;
        int m_next = 0;
        QString m_error;
    };
    int m_good;
};

std::shared_ptr<Workload> ecommerce()
{
    Outcome<std::shared_ptr<Workload>> made = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), 3000, false);
    if (!made)
        qFatal("%s", qPrintable(made.error()));
    return made.value();
}

} // namespace

class TestBatchEncoder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // First, while the process is small: batches of 80 MiB are held two at a time (the one
    // sent and the next), and the slots give such batches' memory back.
    void largeBatchesAreNotEncodedFourAhead()
    {
        const LargeValueWorkload workload(160);
        std::unique_ptr<CommandSource> source = std::move(workload.open().value());
        EncodeOptions options;
        options.eventsPerBatch = 20;   // 20 values of 4 MiB: 80 MiB a batch
        const long before = maxResidentMegabytes();
        EncodedBatches producer(*source, options);
        int batches = 0;
        while (const EncodedBatch *batch = producer.next()) {
            if (!batch->empty()) {   // the last one only counts the end
                QCOMPARE(batch->commandCount(), size_t(20));
                ++batches;
            }
            producer.whileWaiting();   // the next one is encoded while this one is awaited
            producer.recycle();
        }
        QCOMPARE(batches, 8);
        // Two batches of 80 MiB (one sent, one encoded) and a string's doubling as it grows:
        // about 240 MB; four batches ahead made it 400 MB.
        const long grown = maxResidentMegabytes() - before;
        qInfo("peak resident memory grew by %ld MB", grown);
        QVERIFY2(grown > 150 && grown < 320, qPrintable(QStringLiteral("%1 MB").arg(grown)));
    }

    void batchesAreTheOldEncoding_data()
    {
        QTest::addColumn<QString>("workloadName");
        QTest::addColumn<int>("perBatch");
        QTest::addColumn<QString>("onlyType");
        QTest::addColumn<bool>("filtered");
        const QString firstType = ecommerce()->describe().types.at(0);
        QTest::newRow("ecommerce, 1 event") << "ecommerce" << 1 << QString() << false;
        QTest::newRow("ecommerce, 7 events") << "ecommerce" << 7 << QString() << false;
        QTest::newRow("ecommerce, 256 events") << "ecommerce" << 256 << QString() << false;
        QTest::newRow("ecommerce, one type") << "ecommerce" << 3 << firstType << false;
        QTest::newRow("ecommerce, EXPIRE and CONFIG SET kept back") << "ecommerce" << 5 << QString() << true;
        QTest::newRow("hash-ttl, one pattern") << "hash-ttl" << 10 << "set-ex" << false;
    }

    void batchesAreTheOldEncoding()
    {
        QFETCH(QString, workloadName);
        QFETCH(int, perBatch);
        QFETCH(QString, onlyType);
        QFETCH(bool, filtered);
        HashTtlParameters parameters;
        parameters.keys = 2000;
        const std::shared_ptr<Workload> workload =
            workloadName == QLatin1String("hash-ttl") ? std::make_shared<HashTtlWorkload>(parameters) : ecommerce();
        SendFilter filter;
        filter.commands = {"EXPIRE"};
        filter.subcommands = {"CONFIG|SET"};
        EncodeOptions options;
        options.onlyType = onlyType.toStdString();
        options.eventsPerBatch = perBatch;
        options.filter = filtered ? &filter : nullptr;

        const Batches expected = expectedBatches(*workload, options);
        const Batches produced = producedBatches(*workload, options);
        QVERIFY(expected.resp.size() > 5);
        QCOMPARE(produced.resp.size(), expected.resp.size());
        for (size_t i = 0; i < expected.resp.size(); ++i) {
            QVERIFY2(produced.resp[i] == expected.resp[i], qPrintable(QStringLiteral("batch %1 differs").arg(i)));
            QVERIFY2(produced.names[i] == expected.names[i], qPrintable(QStringLiteral("names of batch %1 differ").arg(i)));
        }
        QCOMPARE(produced.events, expected.events);
        QCOMPARE(produced.events, workload->describe().events);
        QCOMPARE(produced.eventsSent, expected.eventsSent);
        QCOMPARE(produced.refused, expected.refused);
        QCOMPARE(produced.refused.empty(), !filtered);
    }

    void allocatesNothingInTheSteadyState()
    {
        HashTtlParameters parameters;
        parameters.keys = 20000;
        parameters.valueSize = 200;
        Outcome<std::unique_ptr<CommandSource>> source = HashTtlWorkload(parameters).open();
        EncodeOptions options;
        options.eventsPerBatch = 4;
        EncodedBatches producer(*source.value(), options);
        long long commands = 0;
        for (int taken = 0; taken < 3000; ++taken) {
            const EncodedBatch *batch = producer.next();
            QVERIFY(batch);
            producer.whileWaiting();
            // Counted from batch 500 on: the buffers have grown by then.
            if (taken == 500)
                AllocationCounter::start();
            if (taken >= 500)
                commands += static_cast<long long>(batch->commandCount());
            producer.recycle();
        }
        const long long allocations = AllocationCounter::stop();
        QCOMPARE(commands, 2500LL * 16);
        QCOMPARE(allocations, 0LL);
    }

    void aCancelStopsTheReading()
    {
        std::atomic<bool> cancelled{false};
        const std::shared_ptr<Workload> workload = ecommerce();
        std::unique_ptr<CommandSource> source = std::move(workload->open().value());
        EncodeOptions options;
        options.cancelled = &cancelled;
        EncodedBatches producer(*source, options);
        long long events = 0;
        for (int i = 0; i < 3; ++i) {
            const EncodedBatch *batch = producer.next();
            QVERIFY(batch);
            producer.whileWaiting();
            events += batch->events;
            producer.recycle();
        }
        cancelled.store(true);
        // The one batch encoded before the cancel still comes, then nothing.
        int after = 0;
        while (const EncodedBatch *batch = producer.next()) {
            events += batch->events;
            producer.recycle();
            ++after;
        }
        QVERIFY2(after <= 2, qPrintable(QString::number(after)));
        QVERIFY(events < workload->describe().events);
        QVERIFY(producer.error().isEmpty());
    }

    void aFailingSourceEndsWithItsError()
    {
        FailingWorkload workload(25);
        std::unique_ptr<CommandSource> source = std::move(workload.open().value());
        EncodeOptions options;
        options.eventsPerBatch = 10;
        EncodedBatches producer(*source, options);
        std::vector<size_t> sizes;
        while (const EncodedBatch *batch = producer.next()) {
            producer.whileWaiting();
            sizes.push_back(batch->commandCount());
            producer.recycle();
        }
        // Two whole batches; the last five events, read before the failure, are not sent.
        QCOMPARE(sizes, std::vector<size_t>({10, 10}));
        QCOMPARE(producer.error(), QStringLiteral("events.jsonl:26: not JSON"));
    }
};

QTEST_GUILESS_MAIN(TestBatchEncoder)
#include "tst_batchencoder.moc"
