#include "workloadfactory.h"

#include "captureparser.h"
#include "captureworkload.h"
#include "chunkedreader.h"
#include "ecommerceworkload.h"
#include "generatorlimits.h"
#include "hashttlworkload.h"

#include <QDir>
#include <QFileInfo>

// Resources in a static library are registered explicitly (outside any namespace), once.
static void registerResources()
{
    static const bool registered = [] {
        Q_INIT_RESOURCE(workloads);
        return true;
    }();
    (void)registered;
}

namespace {

const char *const builtInRecording = ":/workloads/ecommerce-events.jsonl";
const char *const builtInAttributes = ":/workloads/attributes.json";
const long long builtInRecordingEvents = 20000;
const long long builtInRecordingShoppers = 1500;
const std::uint64_t builtInRecordingSeed = 1;


Status rejectParameters(const std::map<QString, QString> &parameters, const QString &workload,
                        const QStringList &valid)
{
    for (const auto &entry : parameters) {
        if (!valid.contains(entry.first))
            return Error{QStringLiteral("%1: unknown parameter '%2' (%3)")
                             .arg(workload, entry.first,
                                  valid.isEmpty() ? QStringLiteral("this workload takes none")
                                                  : QStringLiteral("valid: ") + valid.join(QStringLiteral(", ")))};
    }
    return Status::success();
}

Outcome<AttributeConfig> attributesFor(const QString &attributesFile, QString &name)
{
    name = attributesFile.isEmpty() ? QStringLiteral("built-in") : attributesFile;
    return loadAttributeConfig(attributesFile.isEmpty() ? QString::fromLatin1(builtInAttributes) : attributesFile);
}

Outcome<long long> positiveParameter(const std::map<QString, QString> &parameters, const char *name, long long fallback)
{
    const auto it = parameters.find(QString::fromLatin1(name));
    if (it == parameters.end())
        return fallback;
    bool ok = false;
    const long long value = it->second.trimmed().toLongLong(&ok);
    if (!ok || value < 0 || (value == 0 && std::string(name) != "seed"))
        return Error{QStringLiteral("ecommerce: parameter %1: expected a %2 integer, got '%3'")
                         .arg(QString::fromLatin1(name),
                              std::string(name) == "seed" ? QStringLiteral("non-negative") : QStringLiteral("positive"),
                              it->second)};
    return value;
}

Outcome<std::shared_ptr<Workload>> makeEcommerce(const std::map<QString, QString> &parameters,
                                                 const QString &attributesFile, long long events)
{
    Status valid = rejectParameters(parameters, QStringLiteral("ecommerce"), workloadParameterNames(QStringLiteral("ecommerce")));
    if (!valid)
        return Error{valid.error()};
    QString attributesName;
    Outcome<AttributeConfig> config = attributesFor(attributesFile, attributesName);
    if (!config)
        return Error{config.error()};
    std::map<QString, QString> generation = parameters;
    if (const auto tag = generation.find(QStringLiteral("hash-tag")); tag != generation.end()) {
        const QString choice = tag->second.trimmed();
        if (choice != QLatin1String("shopper") && choice != QLatin1String("none"))
            return Error{QStringLiteral("ecommerce: parameter hash-tag: expected shopper or none, got '%1'").arg(tag->second)};
        config->hashTagPerShopper = choice == QLatin1String("shopper");
        generation.erase(tag);   // the keys' names only: the recording's events still serve
    }

    const bool generate = (events > 0 && events != builtInRecordingEvents) || !generation.empty();
    std::shared_ptr<EcommerceWorkload> workload;
    if (generate) {
        GeneratorOptions options;
        options.events = events > 0 ? events : builtInRecordingEvents;
        // Bounded before the shoppers are scaled from it (which could overflow) or allocated.
        if (Status bounded = checkGeneratedEvents(options.events, QStringLiteral("--events")); !bounded)
            return Error{bounded.error()};
        // Keep the recording's ratio of events to shoppers unless told otherwise.
        const long long scaledShoppers = std::max(1LL, options.events * builtInRecordingShoppers / builtInRecordingEvents);
        Outcome<long long> shoppers = positiveParameter(generation, "shoppers", scaledShoppers);
        Outcome<long long> seed = positiveParameter(generation, "seed", (long long)builtInRecordingSeed);
        if (!shoppers)
            return Error{shoppers.error()};
        if (!seed)
            return Error{seed.error()};
        if (Status bounded = checkGeneratedShoppers(shoppers.value(), QStringLiteral("--set shoppers")); !bounded)
            return Error{bounded.error()};
        options.shoppers = shoppers.value();
        options.seed = std::uint64_t(seed.value());
        workload = EcommerceWorkload::fromGenerator(options, config.value(), attributesName);
    } else {
        workload = EcommerceWorkload::fromRecording(QString::fromLatin1(builtInRecording),
                                                    QStringLiteral("ecommerce-events.jsonl"), config.value(),
                                                    attributesName);
    }
    Status counted = workload->countPass();
    if (!counted)
        return Error{counted.error()};
    return std::shared_ptr<Workload>(workload);
}

// The bytes a file's format is told from: those after the white space it starts with, which may
// be longer than the head (70,000 blank lines before the first command).
struct FormatHead {
    std::string bytes;
    long long whiteSpaceBefore = 0;
};

Outcome<FormatHead> readFormatHead(const QString &path)
{
    ChunkedReader reader;
    if (!reader.open(path))
        return Error{reader.error()};
    FormatHead head;
    head.whiteSpaceBefore = reader.skipWhiteSpace();
    reader.ensure(formatHeadBytes);
    if (!reader.error().isEmpty())
        return Error{reader.error()};
    head.bytes.assign(reader.buffered().substr(0, formatHeadBytes));
    return head;
}

Outcome<std::shared_ptr<Workload>> makeFromFile(const QString &path, const std::map<QString, QString> &parameters,
                                                const QString &attributesFile, long long events, bool lenient)
{
    const QFileInfo info(path);
    if (!info.exists())
        return Error{QStringLiteral("workload '%1': neither a built-in workload (%2) nor an existing file")
                         .arg(path, builtInWorkloadNames().join(QStringLiteral(", ")))};
    if (!info.isFile())
        return Error{QStringLiteral("%1: not a regular file").arg(path)};
    const Outcome<FormatHead> head = readFormatHead(path);
    if (!head)
        return Error{head.error()};
    CaptureFormat format = CaptureFormat::CommandFile;
    bool isEvents = false;
    std::string problem;
    if (!detectCaptureFormat(head->bytes, format, isEvents, problem, head->whiteSpaceBefore))
        return Error{QStringLiteral("%1: %2").arg(path, QString::fromStdString(problem))};
    if (events > 0)
        return Error{QStringLiteral("%1: --events applies to the built-in ecommerce workload only").arg(path)};

    if (isEvents) {
        Status valid = rejectParameters(parameters, info.fileName(), {});
        if (!valid)
            return Error{valid.error()};
        QString attributesName;
        Outcome<AttributeConfig> config = attributesFor(attributesFile, attributesName);
        if (!config)
            return Error{config.error()};
        auto workload = EcommerceWorkload::fromRecording(path, info.fileName(), config.value(), attributesName);
        Status counted = workload->countPass();
        if (!counted)
            return Error{counted.error()};
        return std::shared_ptr<Workload>(workload);
    }

    Status valid = rejectParameters(parameters, info.fileName(), {});
    if (!valid)
        return Error{valid.error()};
    auto workload = std::make_shared<CaptureWorkload>(path, format, lenient);
    Status counted = workload->countPass();
    if (!counted)
        return Error{counted.error()};
    if (workload->describe().events == 0)
        return Error{QStringLiteral("%1: no command to replay (%2 skipped)")
                         .arg(path, workload->describe().parameters[QStringLiteral("skipped")])};
    return std::shared_ptr<Workload>(workload);
}

} // namespace

Outcome<std::shared_ptr<Workload>> makeWorkload(const QString &nameOrFile, const std::map<QString, QString> &parameters,
                                                const QString &attributesFile, long long events, bool lenient)
{
    registerResources();
    if (nameOrFile.isEmpty() || nameOrFile == QLatin1String("ecommerce"))
        return makeEcommerce(parameters, attributesFile, events);
    if (nameOrFile == QLatin1String("hash-ttl")) {
        if (events > 0)
            return Error{QStringLiteral("hash-ttl: --events does not apply; use --set keys=N")};
        Outcome<HashTtlParameters> parsed = HashTtlWorkload::parseParameters(parameters);
        if (!parsed)
            return Error{parsed.error()};
        return std::shared_ptr<Workload>(std::make_shared<HashTtlWorkload>(parsed.value()));
    }
    return makeFromFile(nameOrFile, parameters, attributesFile, events, lenient);
}

QStringList workloadParameterNames(const QString &workloadName)
{
    if (workloadName == QLatin1String("ecommerce"))
        return {QStringLiteral("seed"), QStringLiteral("shoppers"), QStringLiteral("hash-tag")};
    if (workloadName == QLatin1String("hash-ttl"))
        return HashTtlWorkload::parameterNames();
    return {};
}

QStringList builtInWorkloadNames()
{
    return {QStringLiteral("ecommerce"), QStringLiteral("hash-ttl")};
}
