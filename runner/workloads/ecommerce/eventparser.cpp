// Reading one event line with nlohmann's SAX interface: the values go straight into the
// ShopperEvent, with no document built per line, so parsing stays off the replay's critical
// path (docs/PERFORMANCE.md, "Event parsing"). Type errors name the field's path.

#include "jsonsupport.h"
#include "shopperevent.h"

#include <vector>

namespace {

enum class Where { Root, Product, Transaction, Page, Skipped };

// Bit flags of the fields seen, to report the first missing one.
constexpr unsigned SeenEventId = 1, SeenTimestamp = 2, SeenShopper = 4, SeenSession = 8, SeenType = 16,
    SeenId = 32, SeenCategory = 64, SeenPrice = 128, SeenRevenue = 256, SeenItemCount = 512, SeenUrl = 1024;

struct Field {
    std::string *text = nullptr;       // a string field
    long long *integer = nullptr;      // an integer field
    bool *present = nullptr;           // set when the field is there (not null)
    unsigned seen = 0;                 // its bit in the required fields
};

class EventSax : public nlohmann::json_sax<nlohmann::json> {
public:
    EventSax(ShopperEvent &event, std::string &error) : m_event(event), m_error(error) {}

    std::string typeName;
    unsigned seen = 0;          // root fields
    unsigned innerSeen = 0;     // fields of the sub-object being read

    bool null() override { return scalar(nullptr, nullptr, false); }
    bool boolean(bool) override { return scalar(nullptr, nullptr, true); }
    bool number_integer(number_integer_t value) override { return scalar(nullptr, &value, true); }
    bool number_unsigned(number_unsigned_t value) override
    {
        const number_integer_t signedValue = number_integer_t(value);
        if (value > number_unsigned_t(std::numeric_limits<number_integer_t>::max()))
            return typeError(" must be an integer that fits in 64 bits");
        return scalar(nullptr, &signedValue, true);
    }
    bool number_float(number_float_t, const string_t &) override
    {
        if (const Field *field = current(); field && field->integer)
            return typeError(" must be an integer (money in cents, time in ms)");
        return scalar(nullptr, nullptr, true);
    }
    bool string(string_t &value) override { return scalar(&value, nullptr, true); }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override;
    bool end_object() override;
    bool start_array(std::size_t) override;
    bool end_array() override
    {
        m_stack.pop_back();
        return true;
    }
    bool key(string_t &value) override
    {
        m_key = value;
        return true;
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &error) override
    {
        // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 36: …".
        std::string what = error.what();
        const size_t column = what.find("column ");
        if (column != std::string::npos)
            m_error = "invalid JSON at " + what.substr(column);
        else
            m_error = "invalid JSON at column " + std::to_string(position) + ": " + what.substr(what.find("] ") + 2);
        return false;
    }

private:
    const Field *current();
    bool scalar(const std::string *text, const number_integer_t *integer, bool notNull);
    bool typeError(const char *what)
    {
        m_error = "field " + path() + what;
        return false;
    }
    std::string path() const
    {
        static const char *const prefixes[] = {"", "product.", "transaction.", "page.", ""};
        return prefixes[int(m_stack.empty() ? Where::Root : m_stack.back())] + m_key;
    }
    bool finishObject(Where where);

    ShopperEvent &m_event;
    std::string &m_error;
    std::vector<Where> m_stack;
    std::string m_key;
    Field m_field;
    bool m_scratch = false;
};

const Field *EventSax::current()
{
    if (m_stack.empty() || m_stack.back() == Where::Skipped)
        return nullptr;
    ShopperEvent &e = m_event;
    m_field = Field();
    m_field.present = &m_scratch;
    auto text = [&](std::string &target, unsigned bit) { m_field.text = &target; m_field.seen = bit; };
    auto integer = [&](long long &target, unsigned bit) { m_field.integer = &target; m_field.seen = bit; };
    switch (m_stack.back()) {
    case Where::Root:
        if (m_key == "event_id") text(e.eventId, SeenEventId);
        else if (m_key == "timestamp") integer(e.timestampMs, SeenTimestamp);
        else if (m_key == "shopper_id") text(e.shopperId, SeenShopper);
        else if (m_key == "session_id") text(e.sessionId, SeenSession);
        else if (m_key == "type") text(typeName, SeenType);
        else if (m_key == "cart_total") { integer(e.cartTotalCents, 0); m_field.present = &e.hasCartTotal; }
        else if (m_key == "checkout_step") { integer(e.checkoutStep, 0); m_field.present = &e.hasCheckoutStep; }
        else return nullptr;
        break;
    case Where::Product:
        if (m_key == "id") text(e.product.id, SeenId);
        else if (m_key == "category") text(e.product.category, SeenCategory);
        else if (m_key == "price") integer(e.product.priceCents, SeenPrice);
        else if (m_key == "name") text(e.product.name, 0);
        else if (m_key == "brand") text(e.product.brand, 0);
        else if (m_key == "currency") text(e.product.currency, 0);
        else return nullptr;
        break;
    case Where::Transaction:
        if (m_key == "id") text(e.transaction.id, SeenId);
        else if (m_key == "revenue") integer(e.transaction.revenueCents, SeenRevenue);
        else if (m_key == "item_count") integer(e.transaction.itemCount, SeenItemCount);
        else return nullptr;
        break;
    case Where::Page:
        if (m_key == "url") text(e.page.url, SeenUrl);
        else if (m_key == "referrer") text(e.page.referrer, 0);
        else if (m_key == "utm_source") text(e.page.utmSource, 0);
        else if (m_key == "utm_medium") text(e.page.utmMedium, 0);
        else if (m_key == "utm_campaign") text(e.page.utmCampaign, 0);
        else return nullptr;
        break;
    case Where::Skipped:
        return nullptr;
    }
    return &m_field;
}

// A string, number, boolean or null where `m_key` names the field. Null counts as absent.
bool EventSax::scalar(const std::string *text, const number_integer_t *integer, bool notNull)
{
    if (m_stack.empty()) {
        m_error = "an event must be a JSON object";
        return false;
    }
    const Field *field = current();
    if (!field || !notNull)
        return true;
    if (field->text && !text)
        return typeError(" must be a string");
    if (field->integer && !integer)
        return typeError(" must be an integer");
    if (field->text)
        *field->text = *text;
    else
        *field->integer = *integer;
    *field->present = true;
    (m_stack.back() == Where::Root ? seen : innerSeen) |= field->seen;
    return true;
}

bool EventSax::start_object(std::size_t)
{
    if (m_stack.empty()) {
        m_stack.push_back(Where::Root);
        return true;
    }
    Where where = Where::Skipped;
    if (m_stack.back() == Where::Root) {
        if (m_key == "product") {
            where = Where::Product;
            m_event.product = ShopperEvent::Product();
        } else if (m_key == "transaction") {
            where = Where::Transaction;
            m_event.transaction = ShopperEvent::Transaction();
        } else if (m_key == "page") {
            where = Where::Page;
            m_event.page = ShopperEvent::Page();
        } else if (current()) {
            return typeError(m_field.text ? " must be a string" : " must be an integer");
        }
    }
    innerSeen = 0;
    m_stack.push_back(where);
    return true;
}

bool EventSax::end_object()
{
    const Where where = m_stack.back();
    m_stack.pop_back();
    return finishObject(where);
}

bool EventSax::finishObject(Where where)
{
    auto require = [this](std::initializer_list<std::pair<unsigned, const char *>> fields) {
        for (const auto &[bit, name] : fields) {
            if (!(innerSeen & bit)) {
                m_error = std::string("missing field ") + name;
                return false;
            }
        }
        return true;
    };
    switch (where) {
    case Where::Product:
        m_event.hasProduct = true;
        return require({{SeenId, "product.id"}, {SeenCategory, "product.category"}, {SeenPrice, "product.price"}});
    case Where::Transaction:
        m_event.hasTransaction = true;
        return require({{SeenId, "transaction.id"}, {SeenRevenue, "transaction.revenue"}, {SeenItemCount, "transaction.item_count"}});
    case Where::Page:
        m_event.hasPage = true;
        return require({{SeenUrl, "page.url"}});
    case Where::Root:
    case Where::Skipped:
        break;
    }
    return true;
}

bool EventSax::start_array(std::size_t)
{
    if (m_stack.empty()) {
        m_error = "an event must be a JSON object";
        return false;
    }
    if (m_stack.back() == Where::Root && (m_key == "product" || m_key == "transaction" || m_key == "page"))
        return typeError(" must be an object");
    if (current())
        return typeError(m_field.text ? " must be a string" : " must be an integer");
    m_stack.push_back(Where::Skipped);
    return true;
}

bool requireRootFields(unsigned seen, std::string &error)
{
    static const std::pair<unsigned, const char *> fields[] = {
        {SeenEventId, "event_id"}, {SeenTimestamp, "timestamp"}, {SeenShopper, "shopper_id"},
        {SeenSession, "session_id"}, {SeenType, "type"}};
    for (const auto &[bit, name] : fields) {
        if (!(seen & bit)) {
            error = std::string("missing field ") + name;
            return false;
        }
    }
    return true;
}

} // namespace

bool parseEventJsonLine(std::string_view line, ShopperEvent &event, std::string &error)
{
    error.clear();
    event.hasProduct = event.hasCartTotal = event.hasCheckoutStep = event.hasTransaction = event.hasPage = false;
    if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        error = "empty event line";
        return false;
    }
    EventSax sax(event, error);
    if (!nlohmann::json::sax_parse(line.begin(), line.end(), &sax)) {
        if (error.empty())
            error = "invalid JSON";
        return false;
    }
    if (!requireRootFields(sax.seen, error))
        return false;
    if (event.eventId.empty() || event.shopperId.empty()) {
        error = event.eventId.empty() ? "field event_id is empty" : "field shopper_id is empty";
        return false;
    }
    if (!shopperEventTypeFromName(sax.typeName, event.type)) {
        error = "unknown event type '" + sax.typeName + "'";
        return false;
    }
    return true;
}
