#include "shopperevent.h"

#include <charconv>
#include <initializer_list>
#include <string>

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

// A small JSON reader for event lines. A generic DOM parser costs several times more than
// the translation itself, and the replay must not wait for parsing.
class JsonCursor {
public:
    JsonCursor(std::string_view text) : m_begin(text.data()), m_p(text.data()), m_end(text.data() + text.size()) {}

    std::string error;

    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }
    bool fail(const char *what)
    {
        if (error.empty())
            error = "invalid JSON at column " + std::to_string(m_p - m_begin + 1) + ": " + what;
        return false;
    }
    bool expect(char c)
    {
        skipSpace();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        if (m_p >= m_end)
            return fail("unexpected end of the line");
        return fail(c == '{' ? "expected '{'" : c == ':' ? "expected ':'" : "unexpected character");
    }
    char peek()
    {
        skipSpace();
        return m_p < m_end ? *m_p : '\0';
    }
    // Iterates the members of an object: call with first=true after '{' was consumed.
    // Returns false at '}' (then `error` is empty) or on a syntax error.
    bool nextKey(bool &first, std::string &key)
    {
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            return false;
        }
        if (!first && !expect(','))
            return false;
        first = false;
        if (peek() != '"')
            return fail("expected a field name");
        if (!readString(key))
            return false;
        return expect(':');
    }
    bool readString(std::string &out)
    {
        skipSpace();
        if (m_p >= m_end || *m_p != '"')
            return fail("expected a string");
        ++m_p;
        out.clear();
        const char *run = m_p;
        while (m_p < m_end) {
            const char c = *m_p;
            if (c == '"') {
                out.append(run, size_t(m_p - run));
                ++m_p;
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                return fail("control character in string");
            if (c != '\\') {
                ++m_p;
                continue;
            }
            out.append(run, size_t(m_p - run));
            if (++m_p >= m_end)
                break;
            switch (*m_p++) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                unsigned code = 0;
                if (!readHex4(code))
                    return false;
                if (code >= 0xD800 && code <= 0xDBFF && m_end - m_p >= 6 && m_p[0] == '\\' && m_p[1] == 'u') {
                    m_p += 2;
                    unsigned low = 0;
                    if (!readHex4(low))
                        return false;
                    if (low >= 0xDC00 && low <= 0xDFFF)
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, code);
                break;
            }
            default:
                m_p -= 2;   // point at the backslash
                return fail("invalid escape in string");
            }
            run = m_p;
        }
        return fail("unterminated string");
    }
    // An integer; a fraction or exponent is reported as "not an integer" (isNumber stays true).
    bool readInteger(long long &value, bool &isNumber)
    {
        skipSpace();
        const char *start = m_p;
        const auto result = std::from_chars(m_p, m_end, value);
        isNumber = result.ec == std::errc() || result.ec == std::errc::result_out_of_range;
        if (result.ec != std::errc())
            return false;
        m_p = result.ptr;
        if (m_p < m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E')) {
            m_p = start;
            return false;
        }
        return true;
    }
    bool readNull()
    {
        skipSpace();
        if (m_end - m_p >= 4 && std::string_view(m_p, 4) == "null") {
            m_p += 4;
            return true;
        }
        return false;
    }
    // Skips any value, e.g. of a field we do not read.
    bool skipValue(int depth = 0)
    {
        if (depth > 64)
            return fail("nesting too deep");
        const char c = peek();
        if (c == '"') {
            std::string ignored;
            return readString(ignored);
        }
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++m_p;
            if (peek() == close) {
                ++m_p;
                return true;
            }
            for (;;) {
                if (c == '{') {
                    std::string key;
                    if (!readString(key) || !expect(':'))
                        return false;
                }
                if (!skipValue(depth + 1))
                    return false;
                const char next = peek();
                ++m_p;
                if (next == close)
                    return true;
                if (next != ',') {
                    --m_p;
                    return fail("expected ',' or a closing bracket");
                }
            }
        }
        for (const char *word : {"true", "false", "null"}) {
            const size_t length = std::char_traits<char>::length(word);
            if (size_t(m_end - m_p) >= length && std::string_view(m_p, length) == word) {
                m_p += length;
                return true;
            }
        }
        const char *start = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        while (m_p < m_end && ((*m_p >= '0' && *m_p <= '9') || *m_p == '.' || *m_p == 'e' || *m_p == 'E'
                               || *m_p == '+' || *m_p == '-'))
            ++m_p;
        if (m_p == start)
            return fail("unexpected character");
        return true;
    }

private:
    bool readHex4(unsigned &code)
    {
        if (m_end - m_p < 4)
            return fail("truncated \\u escape");
        for (int i = 0; i < 4; ++i) {
            const char h = *m_p++;
            code <<= 4;
            if (h >= '0' && h <= '9') code |= unsigned(h - '0');
            else if (h >= 'a' && h <= 'f') code |= unsigned(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') code |= unsigned(h - 'A' + 10);
            else return fail("invalid \\u escape");
        }
        return true;
    }
    static void appendUtf8(std::string &out, unsigned code)
    {
        if (code < 0x80) {
            out.push_back(char(code));
        } else if (code < 0x800) {
            out.push_back(char(0xC0 | (code >> 6)));
            out.push_back(char(0x80 | (code & 0x3F)));
        } else if (code < 0x10000) {
            out.push_back(char(0xE0 | (code >> 12)));
            out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
            out.push_back(char(0x80 | (code & 0x3F)));
        } else {
            out.push_back(char(0xF0 | (code >> 18)));
            out.push_back(char(0x80 | ((code >> 12) & 0x3F)));
            out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
            out.push_back(char(0x80 | (code & 0x3F)));
        }
    }

    const char *m_begin;
    const char *m_p;
    const char *m_end;
};

// Reads the value of a string field; null counts as absent.
// A line cut off after "name": is a truncated line, not a value of the wrong type.
bool endedEarly(JsonCursor &cursor)
{
    if (!cursor.atEnd())
        return false;
    cursor.fail("unexpected end of the line");
    return true;
}

bool readStringField(JsonCursor &cursor, const char *prefix, const std::string &name, std::string &value, bool &present, std::string &error)
{
    if (endedEarly(cursor))
        return false;
    if (cursor.readNull()) {
        present = false;
        return true;
    }
    if (cursor.peek() != '"') {
        if (cursor.error.empty())
            error = "field " + std::string(prefix) + name + " must be a string";
        return false;
    }
    present = true;
    return cursor.readString(value);
}

bool readIntegerField(JsonCursor &cursor, const char *prefix, const std::string &name, long long &value, bool &present, std::string &error)
{
    if (endedEarly(cursor))
        return false;
    if (cursor.readNull()) {
        present = false;
        return true;
    }
    bool isNumber = false;
    if (!cursor.readInteger(value, isNumber)) {
        error = "field " + std::string(prefix) + name + (isNumber ? " must be an integer (money in cents, time in ms)" : " must be an integer");
        return false;
    }
    present = true;
    return true;
}

// Bit flags of the fields seen, to report the first missing one.
constexpr unsigned SeenEventId = 1, SeenTimestamp = 2, SeenShopper = 4, SeenSession = 8, SeenType = 16,
    SeenId = 32, SeenCategory = 64, SeenPrice = 128, SeenRevenue = 256, SeenItemCount = 512, SeenUrl = 1024;

bool requireFields(unsigned seen, std::initializer_list<std::pair<unsigned, const char *>> fields, std::string &error)
{
    for (const auto &field : fields) {
        if (!(seen & field.first)) {
            error = std::string("missing field ") + field.second;
            return false;
        }
    }
    return true;
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
    JsonCursor cursor(line);
    std::string key;
    std::string typeName;
    unsigned seen = 0;
    bool present = false;
    event.hasProduct = event.hasCartTotal = event.hasCheckoutStep = event.hasTransaction = event.hasPage = false;

    auto syntaxFailed = [&]() {
        if (error.empty())
            error = cursor.error.empty() ? "invalid JSON" : cursor.error;
        return false;
    };
    if (cursor.peek() != '{') {
        error = cursor.atEnd() ? "empty event line" : "an event must be a JSON object";
        return false;
    }
    cursor.expect('{');
    bool first = true;
    while (cursor.nextKey(first, key)) {
        bool ok = true;
        if (key == "event_id") {
            ok = readStringField(cursor, "", key, event.eventId, present, error);
            seen |= present ? 0u + SeenEventId : 0;
        } else if (key == "timestamp") {
            ok = readIntegerField(cursor, "", key, event.timestampMs, present, error);
            seen |= present ? 0u + SeenTimestamp : 0;
        } else if (key == "shopper_id") {
            ok = readStringField(cursor, "", key, event.shopperId, present, error);
            seen |= present ? 0u + SeenShopper : 0;
        } else if (key == "session_id") {
            ok = readStringField(cursor, "", key, event.sessionId, present, error);
            seen |= present ? 0u + SeenSession : 0;
        } else if (key == "type") {
            ok = readStringField(cursor, "", key, typeName, present, error);
            seen |= present ? 0u + SeenType : 0;
        } else if (key == "cart_total") {
            ok = readIntegerField(cursor, "", key, event.cartTotalCents, event.hasCartTotal, error);
        } else if (key == "checkout_step") {
            ok = readIntegerField(cursor, "", key, event.checkoutStep, event.hasCheckoutStep, error);
        } else if (key == "product" || key == "transaction" || key == "page") {
            if (cursor.readNull())
                continue;
            if (cursor.peek() != '{') {
                if (cursor.error.empty())
                    error = "field " + key + " must be an object";
                return syntaxFailed();
            }
            cursor.expect('{');
            const std::string object = key;
            unsigned inner = 0;
            bool innerFirst = true;
            if (object == "product") {
                ShopperEvent::Product &p = event.product;
                p.name.clear();
                p.brand.clear();
                p.currency.clear();
                while (ok && cursor.nextKey(innerFirst, key)) {
                    if (key == "id") {
                        ok = readStringField(cursor, "product.", key, p.id, present, error);
                        inner |= present ? 0u + SeenId : 0;
                    } else if (key == "category") {
                        ok = readStringField(cursor, "product.", key, p.category, present, error);
                        inner |= present ? 0u + SeenCategory : 0;
                    } else if (key == "price") {
                        ok = readIntegerField(cursor, "product.", key, p.priceCents, present, error);
                        inner |= present ? 0u + SeenPrice : 0;
                    } else if (key == "name") {
                        ok = readStringField(cursor, "product.", key, p.name, present, error);
                    } else if (key == "brand") {
                        ok = readStringField(cursor, "product.", key, p.brand, present, error);
                    } else if (key == "currency") {
                        ok = readStringField(cursor, "product.", key, p.currency, present, error);
                    } else {
                        ok = cursor.skipValue();
                    }
                }
                if (ok && cursor.error.empty()
                    && !requireFields(inner, {{SeenId, "product.id"}, {SeenCategory, "product.category"}, {SeenPrice, "product.price"}}, error))
                    return false;
                event.hasProduct = true;
            } else if (object == "transaction") {
                ShopperEvent::Transaction &t = event.transaction;
                while (ok && cursor.nextKey(innerFirst, key)) {
                    if (key == "id") {
                        ok = readStringField(cursor, "transaction.", key, t.id, present, error);
                        inner |= present ? 0u + SeenId : 0;
                    } else if (key == "revenue") {
                        ok = readIntegerField(cursor, "transaction.", key, t.revenueCents, present, error);
                        inner |= present ? 0u + SeenRevenue : 0;
                    } else if (key == "item_count") {
                        ok = readIntegerField(cursor, "transaction.", key, t.itemCount, present, error);
                        inner |= present ? 0u + SeenItemCount : 0;
                    } else {
                        ok = cursor.skipValue();
                    }
                }
                if (ok && cursor.error.empty()
                    && !requireFields(inner, {{SeenId, "transaction.id"}, {SeenRevenue, "transaction.revenue"}, {SeenItemCount, "transaction.item_count"}}, error))
                    return false;
                event.hasTransaction = true;
            } else {
                ShopperEvent::Page &p = event.page;
                p.referrer.clear();
                p.utmSource.clear();
                p.utmMedium.clear();
                p.utmCampaign.clear();
                while (ok && cursor.nextKey(innerFirst, key)) {
                    if (key == "url") {
                        ok = readStringField(cursor, "page.", key, p.url, present, error);
                        inner |= present ? 0u + SeenUrl : 0;
                    } else if (key == "referrer") {
                        ok = readStringField(cursor, "page.", key, p.referrer, present, error);
                    } else if (key == "utm_source") {
                        ok = readStringField(cursor, "page.", key, p.utmSource, present, error);
                    } else if (key == "utm_medium") {
                        ok = readStringField(cursor, "page.", key, p.utmMedium, present, error);
                    } else if (key == "utm_campaign") {
                        ok = readStringField(cursor, "page.", key, p.utmCampaign, present, error);
                    } else {
                        ok = cursor.skipValue();
                    }
                }
                if (ok && cursor.error.empty() && !requireFields(inner, {{SeenUrl, "page.url"}}, error))
                    return false;
                event.hasPage = true;
            }
        } else {
            ok = cursor.skipValue();
        }
        if (!ok || !cursor.error.empty())
            return syntaxFailed();
    }
    if (!cursor.error.empty())
        return syntaxFailed();
    if (!cursor.atEnd()) {
        cursor.fail("unexpected text after the event object");
        return syntaxFailed();
    }
    if (!requireFields(seen, {{SeenEventId, "event_id"}, {SeenTimestamp, "timestamp"}, {SeenShopper, "shopper_id"},
                              {SeenSession, "session_id"}, {SeenType, "type"}}, error))
        return false;
    if (event.eventId.empty() || event.shopperId.empty()) {
        error = event.eventId.empty() ? "field event_id is empty" : "field shopper_id is empty";
        return false;
    }
    if (!shopperEventTypeFromName(typeName, event.type)) {
        error = "unknown event type '" + typeName + "'";
        return false;
    }
    return true;
}
