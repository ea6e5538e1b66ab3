#include "shopperevent.h"

#include <nlohmann/json.hpp>
#include <charconv>

namespace {

const char *const typeNames[shopperEventTypeCount] = {
    "page_view", "product_view", "list_view", "add_to_cart", "remove_from_cart", "checkout_step", "transaction",
};

void appendJsonString(std::string &out, std::string_view text)
{
    out.push_back('"');
    for (const char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (u < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out += "\\u00";
                out.push_back(hex[u >> 4]);
                out.push_back(hex[u & 15]);
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
}

void appendInteger(std::string &out, long long value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendStringField(std::string &out, const char *name, std::string_view value, bool &first)
{
    if (!first)
        out.push_back(',');
    first = false;
    out.push_back('"');
    out += name;
    out += "\":";
    appendJsonString(out, value);
}

void appendIntegerField(std::string &out, const char *name, long long value, bool &first)
{
    if (!first)
        out.push_back(',');
    first = false;
    out.push_back('"');
    out += name;
    out += "\":";
    appendInteger(out, value);
}

using Json = nlohmann::json;

// Field readers: each returns false with `error` set when the field is absent or mistyped.
bool readString(const Json &object, const char *name, const std::string &path, std::string &value,
                std::string &error, bool required = true)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        if (required)
            error = "missing field " + path + name;
        return !required;
    }
    if (!it->is_string()) {
        error = "field " + path + name + " must be a string";
        return false;
    }
    value = it->get_ref<const std::string &>();
    return true;
}

bool readInteger(const Json &object, const char *name, const std::string &path, long long &value,
                 std::string &error)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        error = "missing field " + path + name;
        return false;
    }
    if (!it->is_number_integer()) {
        error = "field " + path + name + " must be an integer";
        return false;
    }
    value = it->get<long long>();
    return true;
}

const Json *findObject(const Json &object, const char *name, std::string &error)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null())
        return nullptr;
    if (!it->is_object()) {
        error = std::string("field ") + name + " must be an object";
        return nullptr;
    }
    return &*it;
}

} // namespace

const char *shopperEventTypeName(ShopperEventType type)
{
    return typeNames[static_cast<int>(type)];
}

bool shopperEventTypeFromName(std::string_view name, ShopperEventType &type)
{
    for (int i = 0; i < shopperEventTypeCount; ++i) {
        if (name == typeNames[i]) {
            type = static_cast<ShopperEventType>(i);
            return true;
        }
    }
    return false;
}

void appendEventJsonLine(const ShopperEvent &event, std::string &out)
{
    bool first = true;
    out.push_back('{');
    appendStringField(out, "event_id", event.eventId, first);
    appendIntegerField(out, "timestamp", event.timestampMs, first);
    appendStringField(out, "shopper_id", event.shopperId, first);
    appendStringField(out, "session_id", event.sessionId, first);
    appendStringField(out, "type", shopperEventTypeName(event.type), first);
    if (event.hasProduct) {
        out += ",\"product\":{";
        bool inner = true;
        appendStringField(out, "id", event.product.id, inner);
        appendStringField(out, "name", event.product.name, inner);
        appendStringField(out, "category", event.product.category, inner);
        appendStringField(out, "brand", event.product.brand, inner);
        appendIntegerField(out, "price", event.product.priceCents, inner);
        appendStringField(out, "currency", event.product.currency, inner);
        out.push_back('}');
    }
    if (event.hasCartTotal)
        appendIntegerField(out, "cart_total", event.cartTotalCents, first);
    if (event.hasCheckoutStep)
        appendIntegerField(out, "checkout_step", event.checkoutStep, first);
    if (event.hasTransaction) {
        out += ",\"transaction\":{";
        bool inner = true;
        appendStringField(out, "id", event.transaction.id, inner);
        appendIntegerField(out, "revenue", event.transaction.revenueCents, inner);
        appendIntegerField(out, "item_count", event.transaction.itemCount, inner);
        out.push_back('}');
    }
    if (event.hasPage) {
        out += ",\"page\":{";
        bool inner = true;
        appendStringField(out, "url", event.page.url, inner);
        if (!event.page.referrer.empty())
            appendStringField(out, "referrer", event.page.referrer, inner);
        if (!event.page.utmSource.empty())
            appendStringField(out, "utm_source", event.page.utmSource, inner);
        if (!event.page.utmMedium.empty())
            appendStringField(out, "utm_medium", event.page.utmMedium, inner);
        if (!event.page.utmCampaign.empty())
            appendStringField(out, "utm_campaign", event.page.utmCampaign, inner);
        out.push_back('}');
    }
    out += "}\n";
}

bool parseEventJsonLine(std::string_view line, ShopperEvent &event, std::string &error)
{
    error.clear();
    Json root;
    try {
        root = Json::parse(line.begin(), line.end());
    } catch (const Json::exception &exception) {
        error = std::string("invalid JSON: ") + exception.what();
        return false;
    }
    if (!root.is_object()) {
        error = "an event must be a JSON object";
        return false;
    }
    const std::string top;
    std::string typeName;
    if (!readString(root, "event_id", top, event.eventId, error)
        || !readInteger(root, "timestamp", top, event.timestampMs, error)
        || !readString(root, "shopper_id", top, event.shopperId, error)
        || !readString(root, "session_id", top, event.sessionId, error)
        || !readString(root, "type", top, typeName, error))
        return false;
    if (event.eventId.empty() || event.shopperId.empty()) {
        error = event.eventId.empty() ? "field event_id is empty" : "field shopper_id is empty";
        return false;
    }
    if (!shopperEventTypeFromName(typeName, event.type)) {
        error = "unknown event type '" + typeName + "'";
        return false;
    }

    event.hasProduct = false;
    if (const Json *product = findObject(root, "product", error)) {
        const std::string path = "product.";
        ShopperEvent::Product &p = event.product;
        if (!readString(*product, "id", path, p.id, error)
            || !readString(*product, "category", path, p.category, error)
            || !readInteger(*product, "price", path, p.priceCents, error))
            return false;
        p.name.clear();
        p.brand.clear();
        p.currency.clear();
        if (!readString(*product, "name", path, p.name, error, false)
            || !readString(*product, "brand", path, p.brand, error, false)
            || !readString(*product, "currency", path, p.currency, error, false))
            return false;
        event.hasProduct = true;
    }
    if (!error.empty())
        return false;

    event.hasCartTotal = root.contains("cart_total");
    if (event.hasCartTotal && !readInteger(root, "cart_total", top, event.cartTotalCents, error))
        return false;
    event.hasCheckoutStep = root.contains("checkout_step");
    if (event.hasCheckoutStep && !readInteger(root, "checkout_step", top, event.checkoutStep, error))
        return false;

    event.hasTransaction = false;
    if (const Json *transaction = findObject(root, "transaction", error)) {
        const std::string path = "transaction.";
        ShopperEvent::Transaction &t = event.transaction;
        if (!readString(*transaction, "id", path, t.id, error)
            || !readInteger(*transaction, "revenue", path, t.revenueCents, error)
            || !readInteger(*transaction, "item_count", path, t.itemCount, error))
            return false;
        event.hasTransaction = true;
    }
    if (!error.empty())
        return false;

    event.hasPage = false;
    if (const Json *page = findObject(root, "page", error)) {
        const std::string path = "page.";
        ShopperEvent::Page &p = event.page;
        p = ShopperEvent::Page();
        if (!readString(*page, "url", path, p.url, error)
            || !readString(*page, "referrer", path, p.referrer, error, false)
            || !readString(*page, "utm_source", path, p.utmSource, error, false)
            || !readString(*page, "utm_medium", path, p.utmMedium, error, false)
            || !readString(*page, "utm_campaign", path, p.utmCampaign, error, false))
            return false;
        event.hasPage = true;
    }
    return error.empty();
}
