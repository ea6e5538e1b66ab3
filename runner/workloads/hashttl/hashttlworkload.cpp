#include "hashttlworkload.h"

#include "seededrandom.h"

#include <charconv>

namespace {

const char valueAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const std::uint64_t valueSeed = 0x5eed7711;
const char hashTagName[] = "hash-tag";

struct Limit {
    const char *name;
    long long HashTtlParameters::*member;
    long long minimum;
    long long maximum;
    const char *meaning;
};
const Limit limits[] = {
    {"keys", &HashTtlParameters::keys, 1, 100000000, "number of keys per pattern"},
    {"value-size", &HashTtlParameters::valueSize, 1, 1 << 20, "bytes per value"},
    {"ttl", &HashTtlParameters::ttl, 1, 315360000, "seconds"},
};

class HashTtlSource : public CommandSource {
public:
    explicit HashTtlSource(const HashTtlParameters &parameters)
        : m_parameters(parameters), m_random(valueSeed)
    {
        char buffer[24];
        m_ttl.assign(buffer, std::to_chars(buffer, buffer + sizeof buffer, parameters.ttl).ptr);
        m_value.resize(size_t(parameters.valueSize));
    }

    bool next(EventCommands &out) override
    {
        if (m_index >= m_parameters.keys)
            return false;
        char buffer[24];
        const std::string_view index(buffer, size_t(std::to_chars(buffer, buffer + sizeof buffer, m_index).ptr - buffer));
        ++m_index;
        if (m_parameters.hashTagPerUser)
            m_key.assign("user:{").append(index).append("}");
        else
            m_key.assign("user:").append(index);
        m_stringKey.assign(m_key).append(":auth_token");
        for (char &c : m_value)
            c = valueAlphabet[m_random.below(sizeof valueAlphabet - 1)];

        out.clear();
        out.add("hsetex", {"HSETEX", m_key, "EX", m_ttl, "FIELDS", "1", "auth_token", m_value});
        out.add("set-ex", {"SET", m_stringKey, m_value, "EX", m_ttl});
        out.add("hset-hexpire", {"HSET", m_key, "auth_token", m_value});
        out.add("hset-hexpire", {"HEXPIRE", m_key, m_ttl, "FIELDS", "1", "auth_token"});
        return true;
    }

private:

    HashTtlParameters m_parameters;
    SeededRandom m_random;
    long long m_index = 0;
    std::string m_ttl;
    std::string m_key;
    std::string m_stringKey;
    std::string m_value;
};

} // namespace

QStringList HashTtlWorkload::parameterNames()
{
    QStringList names;
    for (const Limit &limit : limits)
        names << QString::fromLatin1(limit.name);
    names << QString::fromLatin1(hashTagName);
    return names;
}

QStringList HashTtlWorkload::patternNames()
{
    return {QStringLiteral("hsetex"), QStringLiteral("set-ex"), QStringLiteral("hset-hexpire")};
}

Outcome<HashTtlParameters> HashTtlWorkload::parseParameters(const std::map<QString, QString> &values)
{
    HashTtlParameters parameters;
    for (const auto &entry : values) {
        if (entry.first == QLatin1String(hashTagName)) {
            const QString choice = entry.second.trimmed();
            if (choice != QLatin1String("user") && choice != QLatin1String("none"))
                return Error{QStringLiteral("hash-ttl: parameter hash-tag: expected user or none, got '%1'").arg(entry.second)};
            parameters.hashTagPerUser = choice == QLatin1String("user");
            continue;
        }
        const Limit *found = nullptr;
        for (const Limit &limit : limits)
            if (entry.first == QLatin1String(limit.name))
                found = &limit;
        if (!found)
            return Error{QStringLiteral("hash-ttl: unknown parameter '%1' (valid: %2)")
                             .arg(entry.first, parameterNames().join(QStringLiteral(", ")))};
        bool ok = false;
        const long long value = entry.second.trimmed().toLongLong(&ok);
        if (!ok || value < found->minimum || value > found->maximum)
            return Error{QStringLiteral("hash-ttl: parameter %1 (%2): expected an integer from %3 to %4, got '%5'")
                             .arg(entry.first, QString::fromLatin1(found->meaning))
                             .arg(found->minimum).arg(found->maximum).arg(entry.second)};
        parameters.*(found->member) = value;
    }
    return parameters;
}

WorkloadInfo HashTtlWorkload::describe() const
{
    WorkloadInfo description;
    description.name = QStringLiteral("hash-ttl");
    description.parameters[QStringLiteral("keys")] = QString::number(m_parameters.keys);
    description.parameters[QStringLiteral("value-size")] = QString::number(m_parameters.valueSize);
    description.parameters[QStringLiteral("ttl")] = QString::number(m_parameters.ttl);
    // Said only when it differs from the default, so bundles of untagged runs read as before.
    if (m_parameters.hashTagPerUser)
        description.parameters[QString::fromLatin1(hashTagName)] = QStringLiteral("user");
    description.events = m_parameters.keys;
    description.commands = 4 * m_parameters.keys;
    description.types = patternNames();
    description.typesTimedAlone = true;
    description.categoryNoun = QStringLiteral("pattern");
    description.referenceType = QStringLiteral("set-ex");   // the studies compare each pattern with plain SET … EX
    return description;
}

Outcome<std::unique_ptr<CommandSource>> HashTtlWorkload::open() const
{
    return std::unique_ptr<CommandSource>(new HashTtlSource(m_parameters));
}
