#include "ecommerceworkload.h"

#include "chunkedreader.h"
#include "eventtranslator.h"
#include "interruption.h"

#include <QCryptographicHash>
#include <QFile>

namespace {

const size_t maxEventLineLength = 1 << 20;

class EventCommandSource : public CommandSource {
public:
    explicit EventCommandSource(const AttributeConfig &config) : m_translator(config) {}

    bool next(EventCommands &out) override
    {
        if (!nextEvent(m_event))
            return false;
        m_translator.translate(m_event, out);
        return true;
    }
    // Like next(), but only counts the event's commands.
    bool nextCount(size_t &commands)
    {
        if (!nextEvent(m_event))
            return false;
        commands = m_translator.countCommands(m_event);
        return true;
    }
    QString error() const override { return m_error; }

protected:
    virtual bool nextEvent(ShopperEvent &event) = 0;
    QString m_error;

private:
    EventTranslator m_translator;
    ShopperEvent m_event;
};

class RecordingSource : public EventCommandSource {
public:
    RecordingSource(const AttributeConfig &config, const QString &displayName)
        : EventCommandSource(config), m_displayName(displayName) {}

    bool open(const QString &path)
    {
        if (!m_reader.open(path)) {
            m_error = m_reader.error();
            return false;
        }
        return true;
    }

protected:
    bool nextEvent(ShopperEvent &event) override
    {
        std::string_view line;
        for (;;) {
            if (!m_reader.nextLine(line, maxEventLineLength)) {
                if (!m_reader.error().isEmpty())
                    m_error = QString(m_reader.error()).replace(m_reader.path(), m_displayName);
                return false;
            }
            if (line.find_first_not_of(" \t") != std::string_view::npos)
                break;   // blank lines are allowed, e.g. a trailing one
        }
        if (!parseEventJsonLine(line, event, m_parseError)) {
            m_error = QStringLiteral("%1:%2: %3").arg(m_displayName).arg(m_reader.lineNumber())
                          .arg(QString::fromStdString(m_parseError));
            return false;
        }
        return true;
    }

private:
    QString m_displayName;
    ChunkedReader m_reader;
    std::string m_parseError;
};

class GeneratedSource : public EventCommandSource {
public:
    GeneratedSource(const AttributeConfig &config, const GeneratorOptions &options)
        : EventCommandSource(config), m_generator(options) {}

protected:
    bool nextEvent(ShopperEvent &event) override { return m_generator.next(event); }

private:
    EventGenerator m_generator;
};

QString sha256Of(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace

std::shared_ptr<EcommerceWorkload> EcommerceWorkload::fromRecording(const QString &path, const QString &displayName,
                                                                    const AttributeConfig &config,
                                                                    const QString &attributesName)
{
    std::shared_ptr<EcommerceWorkload> workload(new EcommerceWorkload);
    workload->m_path = path;
    workload->m_displayName = displayName;
    workload->m_config = config;
    workload->m_attributesName = attributesName;
    return workload;
}

std::shared_ptr<EcommerceWorkload> EcommerceWorkload::fromGenerator(const GeneratorOptions &options,
                                                                    const AttributeConfig &config,
                                                                    const QString &attributesName)
{
    std::shared_ptr<EcommerceWorkload> workload(new EcommerceWorkload);
    workload->m_generator = options;
    workload->m_config = config;
    workload->m_attributesName = attributesName;
    return workload;
}

namespace {

Outcome<std::unique_ptr<EventCommandSource>> openEventSource(const std::optional<GeneratorOptions> &generator,
                                                             const AttributeConfig &config, const QString &path,
                                                             const QString &displayName)
{
    if (generator)
        return std::unique_ptr<EventCommandSource>(new GeneratedSource(config, *generator));
    auto source = std::make_unique<RecordingSource>(config, displayName);
    if (!source->open(path))
        return Error{source->error()};
    return std::unique_ptr<EventCommandSource>(std::move(source));
}

} // namespace

Outcome<std::unique_ptr<CommandSource>> EcommerceWorkload::open() const
{
    Outcome<std::unique_ptr<EventCommandSource>> source = openEventSource(m_generator, m_config, m_path, m_displayName);
    if (!source)
        return Error{source.error()};
    return std::unique_ptr<CommandSource>(std::move(source.value()));
}

Status EcommerceWorkload::countPass() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_counted)
        return m_countStatus;
    m_counted = true;

    WorkloadInfo &d = m_description;
    d.name = QStringLiteral("ecommerce");
    d.types = m_config.types();
    // What the translator sends (attributeconfig.h: translatorCommands()), grouped as the
    // customer-profile study reports it: the data writes, the TTL refreshes, and the check
    // whether an event was seen; or as the configuration names its own groups.
    QStringList writes = translatorCommands();
    writes.removeAll(QStringLiteral("EXPIRE"));
    writes.removeAll(QStringLiteral("SISMEMBER"));
    d.commandGroups = m_config.commandGroups;
    if (d.commandGroups.empty())
        d.commandGroups = {
            {QStringLiteral("writes"), writes},
            {QStringLiteral("TTL refreshes"), {QStringLiteral("EXPIRE")}},
            {QStringLiteral("dedup checks"), {QStringLiteral("SISMEMBER")}},
        };
    // The study reports the trimming of the most-frequent lists on its own (−50%).
    d.namedCommands = {QStringLiteral("ZREMRANGEBYRANK")};
    d.parameters[QStringLiteral("attributes")] = m_attributesName;
    // Said only when it differs from the default, so bundles of tagged runs read as before.
    if (!m_config.hashTagPerShopper)
        d.parameters[QStringLiteral("hash-tag")] = QStringLiteral("none");
    if (m_generator) {
        d.parameters[QStringLiteral("events")] = QString::number(m_generator->events);
        d.parameters[QStringLiteral("shoppers")] = QString::number(m_generator->shoppers);
        d.parameters[QStringLiteral("seed")] = QString::number(m_generator->seed);
    } else {
        d.sourceFile = m_displayName;
        d.sourceSha256 = sha256Of(m_path);
    }

    Outcome<std::unique_ptr<EventCommandSource>> opened = openEventSource(m_generator, m_config, m_path, m_displayName);
    if (!opened) {
        m_countStatus = Error{opened.error()};
        return m_countStatus;
    }
    long long events = 0;
    long long commands = 0;
    size_t eventCommands = 0;
    while (opened.value()->nextCount(eventCommands)) {
        ++events;
        commands += (long long)eventCommands;
        // A large workload takes seconds to count: SIGINT, SIGTERM and SIGHUP stop it.
        if ((events & 0xFFF) == 0 && interruptRequested()) {
            m_countStatus = Error{QStringLiteral("ecommerce: interrupted while preparing the workload")};
            return m_countStatus;
        }
    }
    if (interruptRequested()) {   // also while the generator was built, before any event
        m_countStatus = Error{QStringLiteral("ecommerce: interrupted while preparing the workload")};
        return m_countStatus;
    }
    if (!opened.value()->error().isEmpty()) {
        m_countStatus = Error{opened.value()->error()};
        return m_countStatus;
    }
    d.events = events;
    d.commands = commands;
    return m_countStatus;
}

WorkloadInfo EcommerceWorkload::describe() const
{
    countPass();
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_description;
}
