#include "attributeconfig.h"

#include "boundedfile.h"
#include "jsonsupport.h"

#include <QFile>
#include <charconv>
#include <map>
#include <set>

namespace {


struct NamedAggregation {
    const char *name;
    Aggregation aggregation;
};
const NamedAggregation aggregations[] = {
    {"counter", Aggregation::Counter},
    {"sum", Aggregation::Sum},
    {"mean", Aggregation::Mean},
    {"min", Aggregation::Min},
    {"max", Aggregation::Max},
    {"first", Aggregation::First},
    {"last", Aggregation::Last},
    {"category_count", Aggregation::CategoryCount},
    {"approx_count_distinct", Aggregation::ApproxCountDistinct},
    {"unique_list", Aggregation::UniqueList},
    {"most_frequent", Aggregation::MostFrequent},
};

struct NamedProperty {
    const char *name;
    EventProperty property;
};
const NamedProperty properties[] = {
    {"event_id", EventProperty::EventId},
    {"session_id", EventProperty::SessionId},
    {"timestamp", EventProperty::Timestamp},
    {"type", EventProperty::Type},
    {"product.id", EventProperty::ProductId},
    {"product.name", EventProperty::ProductName},
    {"product.category", EventProperty::ProductCategory},
    {"product.brand", EventProperty::ProductBrand},
    {"product.price", EventProperty::ProductPrice},
    {"product.currency", EventProperty::ProductCurrency},
    {"cart_total", EventProperty::CartTotal},
    {"checkout_step", EventProperty::CheckoutStep},
    {"transaction.id", EventProperty::TransactionId},
    {"transaction.revenue", EventProperty::TransactionRevenue},
    {"transaction.item_count", EventProperty::TransactionItemCount},
    {"page.url", EventProperty::PageUrl},
    {"page.referrer", EventProperty::PageReferrer},
    {"page.utm_source", EventProperty::PageUtmSource},
    {"page.utm_medium", EventProperty::PageUtmMedium},
    {"page.utm_campaign", EventProperty::PageUtmCampaign},
};

// Chart order: the categories the published study reports first.
const char *const typeOrder[] = {
    "counter", "sum", "mean", "category_count", "approx_distinct", "unique_list",
    "windowed", "most_frequent", "min_max", "first_last", "dedup",
};

// Thrown inside the parser only, turned into an Error at the boundary.
struct ConfigError {
    std::string path;
    std::string message;
};

[[noreturn]] void fail(const std::string &path, const std::string &message)
{
    throw ConfigError{path, message};
}

std::string typeOf(const Json &value)
{
    return value.type_name();
}

const Json &require(const Json &object, const char *name, const std::string &path)
{
    const auto it = object.find(name);
    if (it == object.end())
        fail(path.empty() ? name : path + "." + name, "missing field");
    return *it;
}

std::string requireString(const Json &value, const std::string &path)
{
    if (!value.is_string())
        fail(path, "must be a string, not " + typeOf(value));
    return value.get<std::string>();
}

long long requireInteger(const Json &value, const std::string &path)
{
    if (!value.is_number_integer())
        fail(path, "must be an integer, not " + typeOf(value));
    return value.get<long long>();
}

void rejectUnknownFields(const Json &object, const std::string &path, std::initializer_list<const char *> known)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool found = false;
        for (const char *name : known)
            found = found || it.key() == name;
        if (!found) {
            std::string list;
            for (const char *name : known)
                list += (list.empty() ? "" : ", ") + std::string(name);
            fail(path.empty() ? it.key() : path + "." + it.key(), "unknown field (expected " + list + ")");
        }
    }
}

// "90s", "5m", "1h", "30d" or a plain number of seconds.
long long requireDuration(const Json &value, const std::string &path)
{
    if (value.is_number_integer()) {
        const long long seconds = value.get<long long>();
        if (seconds <= 0)
            fail(path, "must be positive");
        return seconds;
    }
    if (!value.is_string())
        fail(path, "must be a duration such as \"30d\" or a number of seconds, not " + typeOf(value));
    const std::string text = value.get<std::string>();
    long long number = 0;
    const char *begin = text.data();
    const char *end = text.data() + text.size();
    const auto parsed = std::from_chars(begin, end, number);
    long long unit = 0;
    if (parsed.ec == std::errc() && parsed.ptr + 1 == end) {
        switch (*parsed.ptr) {
        case 's': unit = 1; break;
        case 'm': unit = 60; break;
        case 'h': unit = 3600; break;
        case 'd': unit = 86400; break;
        default: break;
        }
    }
    if (unit == 0 || number <= 0)
        fail(path, "invalid duration '" + text + "' (expected e.g. 90s, 5m, 1h, 30d)");
    return number * unit;
}

std::string indexed(const std::string &path, size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

// Looks `name` up in a table of names; fails listing the known ones.
template <typename Entry, size_t N, typename Value>
void lookUpName(const Entry (&table)[N], const std::string &name, Value Entry::*member, Value &out,
                const std::string &path, const char *what)
{
    std::string list;
    for (const Entry &entry : table) {
        if (name == entry.name) {
            out = entry.*member;
            return;
        }
        list += (list.empty() ? "" : ", ") + std::string(entry.name);
    }
    fail(path, "unknown " + std::string(what) + " '" + name + "' (expected one of " + list + ")");
}

void parseNameAndGroup(const Json &object, const std::string &path, const std::set<std::string> &groups, AttributeSpec &spec)
{
    spec.name = requireString(require(object, "name", path), path + ".name");
    if (spec.name.empty())
        fail(path + ".name", "must not be empty");
    for (char c : spec.name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            fail(path + ".name", "'" + spec.name + "' may use only a-z, 0-9 and _");
    spec.group = requireString(require(object, "group", path), path + ".group");
    if (!groups.count(spec.group))
        fail(path + ".group", "unknown group '" + spec.group + "'");
}

// The aggregation and the property it reads, which must suit each other.
void parseAggregation(const Json &object, const std::string &path, AttributeSpec &spec)
{
    const std::string aggregation = requireString(require(object, "aggregation", path), path + ".aggregation");
    lookUpName(aggregations, aggregation, &NamedAggregation::aggregation, spec.aggregation, path + ".aggregation", "aggregation");
    const auto property = object.find("property");
    if (property == object.end()) {
        if (spec.aggregation != Aggregation::Counter)
            fail(path + ".property", "missing field (aggregation '" + aggregation + "' reads a property)");
        return;
    }
    const std::string name = requireString(*property, path + ".property");
    lookUpName(properties, name, &NamedProperty::property, spec.property, path + ".property", "property");
    const bool numeric = spec.aggregation == Aggregation::Sum || spec.aggregation == Aggregation::Mean
        || spec.aggregation == Aggregation::Min || spec.aggregation == Aggregation::Max;
    if (numeric && !isNumericProperty(spec.property))
        fail(path + ".property", "aggregation '" + aggregation + "' needs a numeric property, '" + name + "' is text");
    if (spec.aggregation == Aggregation::CategoryCount && isNumericProperty(spec.property))
        fail(path + ".property", "aggregation 'category_count' needs a text property, '" + name + "' is a number");
}

void parseEvents(const Json &object, const std::string &path, AttributeSpec &spec)
{
    const Json &events = require(object, "events", path);
    if (!events.is_array() || events.empty())
        fail(path + ".events", "must be a non-empty array of event types");
    for (size_t i = 0; i < events.size(); ++i) {
        const std::string name = requireString(events[i], indexed(path + ".events", i));
        ShopperEventType type;
        if (!shopperEventTypeFromName(name, type))
            fail(indexed(path + ".events", i), "unknown event type '" + name + "' (expected page_view, product_view, "
                 "list_view, add_to_cart, remove_from_cart, checkout_step or transaction)");
        spec.eventTypes |= 1u << int(type);
    }
}

// "period": {"type": "lifetime", "ttl": …} or {"type": "window", "length": …, "bucket": …, "ttl": …}.
void parsePeriod(const Json &object, const std::string &path, AttributeSpec &spec)
{
    const std::string periodPath = path + ".period";
    const Json &period = require(object, "period", path);
    if (!period.is_object())
        fail(periodPath, "must be an object, not " + typeOf(period));
    const std::string periodType = requireString(require(period, "type", periodPath), periodPath + ".type");
    if (periodType == "lifetime") {
        rejectUnknownFields(period, periodPath, {"type", "ttl"});
        spec.ttlSeconds = requireDuration(require(period, "ttl", periodPath), periodPath + ".ttl");
        return;
    }
    if (periodType != "window")
        fail(periodPath + ".type", "unknown period '" + periodType + "' (expected lifetime or window)");
    rejectUnknownFields(period, periodPath, {"type", "length", "bucket", "ttl"});
    spec.windowed = true;
    spec.windowSeconds = requireDuration(require(period, "length", periodPath), periodPath + ".length");
    spec.bucketSeconds = requireDuration(require(period, "bucket", periodPath), periodPath + ".bucket");
    spec.ttlSeconds = requireDuration(require(period, "ttl", periodPath), periodPath + ".ttl");
    if (spec.windowSeconds % spec.bucketSeconds != 0)
        fail(periodPath + ".bucket", "must divide the window length evenly");
    if (spec.ttlSeconds < spec.windowSeconds + spec.bucketSeconds)
        fail(periodPath + ".ttl", "must cover the window and one bucket (at least "
             + std::to_string(spec.windowSeconds + spec.bucketSeconds) + " seconds)");
}

void parseLimits(const Json &object, const std::string &path, AttributeSpec &spec)
{
    const auto cap = object.find("cap");
    if (cap != object.end()) {
        const long long value = requireInteger(*cap, path + ".cap");
        if (value < 1 || value > 100000)
            fail(path + ".cap", "must be between 1 and 100000");
        spec.cap = int(value);
    }
    const auto depth = object.find("category_depth");
    if (depth != object.end()) {
        if (spec.aggregation != Aggregation::CategoryCount)
            fail(path + ".category_depth", "applies to aggregation 'category_count' only");
        const long long value = requireInteger(*depth, path + ".category_depth");
        if (value < 0 || value > 16)
            fail(path + ".category_depth", "must be between 0 and 16");
        spec.categoryDepth = int(value);
    }
}

AttributeSpec parseAttribute(const Json &object, const std::string &path, const std::set<std::string> &groups)
{
    if (!object.is_object())
        fail(path, "must be an object, not " + typeOf(object));
    rejectUnknownFields(object, path, {"name", "group", "aggregation", "property", "events", "period", "cap", "category_depth", "description"});
    AttributeSpec spec;
    parseNameAndGroup(object, path, groups, spec);
    parseAggregation(object, path, spec);
    parseEvents(object, path, spec);
    parsePeriod(object, path, spec);
    parseLimits(object, path, spec);
    spec.type = aggregationTypeName(spec.aggregation, spec.windowed);
    return spec;
}

// "command_groups": [{"name": "writes", "commands": ["INCRBY", …]}, …]: each name once, each
// command one the translator sends and in one group only.
void parseCommandGroups(const Json &root, AttributeConfig &config)
{
    const auto groups = root.find("command_groups");
    if (groups == root.end())
        return;
    if (!groups->is_array() || groups->empty())
        fail("command_groups", "must be a non-empty array");
    std::map<QString, QString> groupOfCommand;
    std::set<QString> names;
    for (size_t i = 0; i < groups->size(); ++i) {
        const std::string path = indexed("command_groups", i);
        const Json &group = (*groups)[i];
        if (!group.is_object())
            fail(path, "must be an object, not " + typeOf(group));
        rejectUnknownFields(group, path, {"name", "commands"});
        const QString name = QString::fromStdString(requireString(require(group, "name", path), path + ".name"));
        if (name.trimmed().isEmpty() || !names.insert(name).second)
            fail(path + ".name", name.trimmed().isEmpty() ? "must not be empty" : "duplicate group '" + name.toStdString() + "'");
        const Json &commands = require(group, "commands", path);
        if (!commands.is_array() || commands.empty())
            fail(path + ".commands", "must be a non-empty array");
        QStringList members;
        for (size_t k = 0; k < commands.size(); ++k) {
            const std::string at = indexed(path + ".commands", k);
            const QString command = QString::fromStdString(requireString(commands[k], at)).toUpper();
            if (!translatorCommands().contains(command))
                fail(at, "'" + command.toStdString() + "' is not a command the translator sends (expected one of "
                             + translatorCommands().join(QStringLiteral(", ")).toStdString() + ")");
            const auto [place, added] = groupOfCommand.emplace(command, name);
            if (!added)
                fail(at, command.toStdString() + " is already in group '" + place->second.toStdString() + "'");
            members << command;
        }
        config.commandGroups.emplace_back(name, members);
    }
}

AttributeConfig parseRoot(const Json &root)
{
    if (!root.is_object())
        fail("(root)", "must be an object, not " + typeOf(root));
    rejectUnknownFields(root, "", {"version", "key_prefix", "dedup", "groups", "attributes", "command_groups", "description"});
    AttributeConfig config;
    const auto version = root.find("version");
    if (version != root.end() && requireInteger(*version, "version") != 1)
        fail("version", "unsupported version (expected 1)");
    const auto prefix = root.find("key_prefix");
    if (prefix != root.end()) {
        config.keyPrefix = requireString(*prefix, "key_prefix");
        if (config.keyPrefix.empty() || config.keyPrefix.find_first_of(" {}") != std::string::npos)
            fail("key_prefix", "must be non-empty, without spaces or braces");
    }
    const auto dedup = root.find("dedup");
    if (dedup != root.end()) {
        if (!dedup->is_object())
            fail("dedup", "must be an object, not " + typeOf(*dedup));
        rejectUnknownFields(*dedup, "dedup", {"ttl"});
        config.dedupTtlSeconds = requireDuration(require(*dedup, "ttl", "dedup"), "dedup.ttl");
    }

    const Json &groups = require(root, "groups", "");
    if (!groups.is_array() || groups.empty())
        fail("groups", "must be a non-empty array");
    std::set<std::string> groupNames;
    for (size_t i = 0; i < groups.size(); ++i) {
        const std::string path = indexed("groups", i);
        if (!groups[i].is_object())
            fail(path, "must be an object, not " + typeOf(groups[i]));
        rejectUnknownFields(groups[i], path, {"name", "description"});
        AttributeGroup group;
        group.name = requireString(require(groups[i], "name", path), path + ".name");
        const auto description = groups[i].find("description");
        if (description != groups[i].end())
            group.description = requireString(*description, path + ".description");
        if (!groupNames.insert(group.name).second)
            fail(path + ".name", "duplicate group '" + group.name + "'");
        config.groups.push_back(group);
    }

    const Json &attributes = require(root, "attributes", "");
    if (!attributes.is_array() || attributes.empty())
        fail("attributes", "must be a non-empty array");
    std::set<std::string> names;
    for (size_t i = 0; i < attributes.size(); ++i) {
        const std::string path = indexed("attributes", i);
        AttributeSpec spec = parseAttribute(attributes[i], path, groupNames);
        if (!names.insert(spec.name).second)
            fail(path + ".name", "duplicate attribute '" + spec.name + "'");
        config.attributes.push_back(std::move(spec));
    }
    parseCommandGroups(root, config);
    return config;
}

} // namespace

const QStringList &translatorCommands()
{
    static const QStringList commands{QStringLiteral("INCRBY"), QStringLiteral("HINCRBY"), QStringLiteral("ZADD"),
                                      QStringLiteral("SET"), QStringLiteral("PFADD"), QStringLiteral("LREM"),
                                      QStringLiteral("LPUSH"), QStringLiteral("LTRIM"), QStringLiteral("ZINCRBY"),
                                      QStringLiteral("ZREMRANGEBYRANK"), QStringLiteral("ZREMRANGEBYSCORE"),
                                      QStringLiteral("SADD"), QStringLiteral("EXPIRE"), QStringLiteral("SISMEMBER")};
    return commands;
}

bool isNumericProperty(EventProperty property)
{
    switch (property) {
    case EventProperty::Timestamp:
    case EventProperty::ProductPrice:
    case EventProperty::CartTotal:
    case EventProperty::CheckoutStep:
    case EventProperty::TransactionRevenue:
    case EventProperty::TransactionItemCount:
        return true;
    default:
        return false;
    }
}

const char *aggregationTypeName(Aggregation aggregation, bool windowed)
{
    if (windowed)
        return "windowed";
    switch (aggregation) {
    case Aggregation::Counter: return "counter";
    case Aggregation::Sum: return "sum";
    case Aggregation::Mean: return "mean";
    case Aggregation::Min:
    case Aggregation::Max: return "min_max";
    case Aggregation::First:
    case Aggregation::Last: return "first_last";
    case Aggregation::CategoryCount: return "category_count";
    case Aggregation::ApproxCountDistinct: return "approx_distinct";
    case Aggregation::UniqueList: return "unique_list";
    case Aggregation::MostFrequent: return "most_frequent";
    }
    return "counter";
}

QStringList AttributeConfig::types() const
{
    QStringList result;
    for (const char *type : typeOrder) {
        bool used = std::string(type) == "dedup";
        for (const AttributeSpec &spec : attributes)
            used = used || spec.type == type;
        if (used)
            result << QString::fromLatin1(type);
    }
    return result;
}

Outcome<AttributeConfig> parseAttributeConfig(const QByteArray &json, const QString &fileName)
{
    const Outcome<Json> root = parseJson(json, fileName);
    if (!root)
        return Error{root.error()};
    try {
        return parseRoot(root.value());
    } catch (const ConfigError &error) {
        return Error{QStringLiteral("%1: %2: %3").arg(fileName, QString::fromStdString(error.path),
                                                     QString::fromStdString(error.message))};
    } catch (const nlohmann::json::exception &exception) {
        return Error{jsonErrorMessage(fileName, exception)};
    }
}

Outcome<AttributeConfig> loadAttributeConfig(const QString &path)
{
    const Outcome<QByteArray> bytes = readBoundedFile(path, 4 << 20, QStringLiteral("an attribute file"));
    if (!bytes)
        return Error{bytes.error()};
    const QString name = path.startsWith(QLatin1Char(':')) ? QStringLiteral("attributes.json") : path;
    return parseAttributeConfig(bytes.value(), name);
}
