#include "eventtranslator.h"

#include <charconv>
#include <initializer_list>
#include <string_view>

namespace {

std::uint64_t fnv1a(std::uint64_t hash, std::string_view text)
{
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

void assignInteger(std::string &out, long long value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.assign(buffer, result.ptr);
}

// Reads a property of an event. Text comes back in `text`, numbers in `number`.
// Returns false when the event does not carry the property (or carries it empty).
bool readProperty(const ShopperEvent &event, EventProperty property, std::string_view &text, long long &number)
{
    auto textOf = [&](bool present, const std::string &value) {
        text = value;
        return present && !value.empty();
    };
    auto numberOf = [&](bool present, long long value) {
        number = value;
        return present;
    };
    switch (property) {
    case EventProperty::None: return false;
    case EventProperty::EventId: return textOf(true, event.eventId);
    case EventProperty::SessionId: return textOf(true, event.sessionId);
    case EventProperty::Timestamp: return numberOf(true, event.timestampMs);
    case EventProperty::Type:
        text = shopperEventTypeName(event.type);
        return true;
    case EventProperty::ProductId: return textOf(event.hasProduct, event.product.id);
    case EventProperty::ProductName: return textOf(event.hasProduct, event.product.name);
    case EventProperty::ProductCategory: return textOf(event.hasProduct, event.product.category);
    case EventProperty::ProductBrand: return textOf(event.hasProduct, event.product.brand);
    case EventProperty::ProductPrice: return numberOf(event.hasProduct, event.product.priceCents);
    case EventProperty::ProductCurrency: return textOf(event.hasProduct, event.product.currency);
    case EventProperty::CartTotal: return numberOf(event.hasCartTotal, event.cartTotalCents);
    case EventProperty::CheckoutStep: return numberOf(event.hasCheckoutStep, event.checkoutStep);
    case EventProperty::TransactionId: return textOf(event.hasTransaction, event.transaction.id);
    case EventProperty::TransactionRevenue: return numberOf(event.hasTransaction, event.transaction.revenueCents);
    case EventProperty::TransactionItemCount: return numberOf(event.hasTransaction, event.transaction.itemCount);
    case EventProperty::PageUrl: return textOf(event.hasPage, event.page.url);
    case EventProperty::PageReferrer: return textOf(event.hasPage, event.page.referrer);
    case EventProperty::PageUtmSource: return textOf(event.hasPage, event.page.utmSource);
    case EventProperty::PageUtmMedium: return textOf(event.hasPage, event.page.utmMedium);
    case EventProperty::PageUtmCampaign: return textOf(event.hasPage, event.page.utmCampaign);
    }
    return false;
}

// The first `depth` levels of "Woman/Shoes/Sneakers"; depth 0 keeps the whole path.
std::string_view categoryPrefix(std::string_view path, int depth)
{
    if (depth <= 0)
        return path;
    size_t position = 0;
    for (int level = 0; level < depth; ++level) {
        position = path.find('/', position);
        if (position == std::string_view::npos)
            return path;
        if (level + 1 < depth)
            ++position;
    }
    return path.substr(0, position);
}

} // namespace

// Fills `out` from empty, reusing the strings it kept (EventCommands::clear()), or only counts.
class EventTranslator::Writer {
public:
    explicit Writer(EventCommands *out) : m_out(out)
    {
        if (m_out)
            m_out->clear();
    }
    size_t count() const { return m_count; }

    void add(const char *type, std::initializer_list<std::string_view> args)
    {
        ++m_count;
        if (m_out)
            m_out->add(type, args);
    }

private:
    EventCommands *m_out;   // null: count only
    size_t m_count = 0;
};

EventTranslator::EventTranslator(const AttributeConfig &config)
    : m_config(config)
{
    const std::string open = m_config.hashTagPerShopper ? "{" : "";
    const std::string close = m_config.hashTagPerShopper ? "}" : "";
    m_keyStart = m_config.keyPrefix + ":" + open;
    m_dedupSuffix = close + ":processed";
    assignInteger(m_dedupTtl, m_config.dedupTtlSeconds);
    for (const AttributeSpec &spec : m_config.attributes) {
        CompiledAttribute compiled;
        compiled.spec = &spec;
        compiled.keySuffix = close + ":" + spec.name;
        compiled.indexSuffix = compiled.keySuffix + ":buckets";
        assignInteger(compiled.ttl, spec.ttlSeconds);
        compiled.negativeCap = "-" + std::to_string(spec.cap + 1);
        compiled.lastIndex = std::to_string(spec.cap - 1);
        m_attributes.push_back(std::move(compiled));
    }
}

bool EventTranslator::admitCategory(const std::string &key, std::string_view field, int cap)
{
    std::vector<std::string> &fields = m_categoryFields[key];
    for (const std::string &known : fields)
        if (known == field)
            return true;
    if (int(fields.size()) >= cap)
        return false;
    fields.emplace_back(field);
    return true;
}

void EventTranslator::translate(const ShopperEvent &event, EventCommands &out)
{
    Writer writer(&out);
    translateInto(event, writer);
}

size_t EventTranslator::countCommands(const ShopperEvent &event)
{
    Writer writer(nullptr);
    translateInto(event, writer);
    return writer.count();
}

void EventTranslator::translateInto(const ShopperEvent &event, Writer &writer)
{
    m_key.assign(m_keyStart).append(event.shopperId).append(m_dedupSuffix);
    writer.add("dedup", {"SISMEMBER", m_key, event.eventId});
    const std::uint64_t id = fnv1a(fnv1a(0xcbf29ce484222325ULL, event.shopperId), std::string_view("\0", 1));
    if (!m_processed.insert(fnv1a(id, event.eventId)).second)
        return;
    writer.add("dedup", {"SADD", m_key, event.eventId});
    writer.add("dedup", {"EXPIRE", m_key, m_dedupTtl});

    for (const CompiledAttribute &attribute : m_attributes)
        if (attribute.spec->reads(event.type))
            translateAttribute(attribute, event, writer);
}

void EventTranslator::translateAttribute(const CompiledAttribute &attribute, const ShopperEvent &event, Writer &writer)
{
    const AttributeSpec &spec = *attribute.spec;
    std::string_view text;
    long long number = 1;
    if (spec.property != EventProperty::None && !readProperty(event, spec.property, text, number))
        return;
    if (isNumericProperty(spec.property) || spec.property == EventProperty::None) {
        assignInteger(m_value, number);
        text = m_value;
    }
    m_key.assign(m_keyStart).append(event.shopperId).append(attribute.keySuffix);
    long long bucketStart = 0;
    if (spec.windowed) {
        bucketStart = (event.timestampMs / 1000) / spec.bucketSeconds * spec.bucketSeconds;
        char buffer[24];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, bucketStart);
        m_key.push_back(':');
        m_key.append(buffer, result.ptr);
    }
    if (!writeUpdate(attribute, m_key, text, writer))
        return;
    writer.add(spec.type.c_str(), {"EXPIRE", m_key, attribute.ttl});
    if (spec.windowed)
        writeBucketIndex(attribute, event, bucketStart, writer);
}

bool EventTranslator::writeUpdate(const CompiledAttribute &attribute, const std::string &key, std::string_view text, Writer &writer)
{
    const AttributeSpec &spec = *attribute.spec;
    const char *type = spec.type.c_str();
    switch (spec.aggregation) {
    case Aggregation::Counter:
        writer.add(type, {"INCRBY", key, "1"});
        break;
    case Aggregation::Sum:
        writer.add(type, {"INCRBY", key, text});
        break;
    case Aggregation::Mean:
        writer.add(type, {"HINCRBY", key, "sum", text});
        writer.add(type, {"HINCRBY", key, "count", "1"});
        break;
    case Aggregation::Min:
        writer.add(type, {"ZADD", key, "LT", text, "min"});
        break;
    case Aggregation::Max:
        writer.add(type, {"ZADD", key, "GT", text, "max"});
        break;
    case Aggregation::First:
        writer.add(type, {"SET", key, text, "NX"});
        break;
    case Aggregation::Last:
        writer.add(type, {"SET", key, text});
        break;
    case Aggregation::CategoryCount: {
        const std::string_view field = categoryPrefix(text, spec.categoryDepth);
        // Past the cap a new category is dropped, as an engine bounding the hash would.
        if (!admitCategory(key, field, spec.cap))
            return false;
        writer.add(type, {"HINCRBY", key, field, "1"});
        break;
    }
    case Aggregation::ApproxCountDistinct:
        writer.add(type, {"PFADD", key, text});
        break;
    case Aggregation::UniqueList:
        writer.add(type, {"LREM", key, "0", text});
        writer.add(type, {"LPUSH", key, text});
        writer.add(type, {"LTRIM", key, "0", attribute.lastIndex});
        break;
    case Aggregation::MostFrequent:
        writer.add(type, {"ZINCRBY", key, "1", text});
        writer.add(type, {"ZREMRANGEBYRANK", key, "0", attribute.negativeCap});
        break;
    }
    return true;
}

// The bucket index lets a reader sum the live buckets; old ones are trimmed by score.
void EventTranslator::writeBucketIndex(const CompiledAttribute &attribute, const ShopperEvent &event, long long bucketStart,
                                       Writer &writer)
{
    const AttributeSpec &spec = *attribute.spec;
    const char *type = spec.type.c_str();
    char bucket[24];
    const auto end = std::to_chars(bucket, bucket + sizeof bucket, bucketStart).ptr;
    char cutoff[24];
    const auto cutoffEnd = std::to_chars(cutoff, cutoff + sizeof cutoff, bucketStart - spec.windowSeconds).ptr;
    m_indexKey.assign(m_keyStart).append(event.shopperId).append(attribute.indexSuffix);
    const std::string_view bucketText(bucket, size_t(end - bucket));
    writer.add(type, {"ZADD", m_indexKey, bucketText, bucketText});
    writer.add(type, {"ZREMRANGEBYSCORE", m_indexKey, "-inf", std::string_view(cutoff, size_t(cutoffEnd - cutoff))});
    writer.add(type, {"EXPIRE", m_indexKey, attribute.ttl});
}
