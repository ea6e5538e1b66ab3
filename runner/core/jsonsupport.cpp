#include "jsonsupport.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

void failAtJson(const Json &value, const std::string &message)
{
    throw nlohmann::detail::other_error::create(501, message, &value);
}

void requireObject(const Json &value)
{
    if (!value.is_object())
        failAtJson(value, std::string("expected an object, got ") + value.type_name());
}

void requireArray(const Json &value)
{
    if (!value.is_array())
        failAtJson(value, std::string("expected an array, got ") + value.type_name());
}

void from_json(const Json &json, QStringList &out)
{
    requireArray(json);
    out.clear();
    for (const Json &item : json)
        out << item.get<QString>();
}

Json finiteOrNull(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

namespace {

// "<source>:<line>:<column>" of byte `offset` in `text`.
QString positionIn(const QByteArray &text, qsizetype offset, const QString &source)
{
    const qsizetype lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const int line = int(std::count(text.constData(), text.constData() + offset, '\n')) + 1;
    return QStringLiteral("%1:%2:%3").arg(source).arg(line).arg(offset - lineStart + 1);
}

// The first bracket that opens level kMaxJsonDepth + 1, outside strings; -1 when none does.
// One pass without recursion, so any depth is measured safely.
qsizetype tooDeepAt(const QByteArray &text)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return -1;
}

// Builds the document as nlohmann's own parser does, in time linear in its size. nlohmann's
// ordered_json looks each new member up among the members before it, so one object of n members
// took n²/2 comparisons to parse: a 1.1 MB bundle of one large object took 14 s, 14 MB over
// 120 s (docs/PERFORMANCE.md, "Loading a bundle"). Here each open object keeps its members'
// places in a hash table; a name given twice keeps its first place and its last value, as
// nlohmann's parser does.
class LinearJsonBuilder final : public nlohmann::json_sax<Json> {
public:
    Json document;

    bool null() override { return place(Json(nullptr)); }
    bool boolean(bool value) override { return place(Json(value)); }
    bool number_integer(number_integer_t value) override { return place(Json(value)); }
    bool number_unsigned(number_unsigned_t value) override { return place(Json(value)); }
    bool number_float(number_float_t value, const string_t &) override { return place(Json(value)); }
    bool string(string_t &value) override { return place(Json(std::move(value))); }
    bool binary(binary_t &value) override { return place(Json::binary(std::move(value))); }
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool key(string_t &name) override
    {
        m_open.back().key = std::move(name);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_array() override { return close(); }
    [[noreturn]] bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &error) override
    {
        if (const auto *parse = dynamic_cast<const Json::parse_error *>(&error))
            throw *parse;
        if (const auto *range = dynamic_cast<const Json::out_of_range *>(&error))
            throw *range;
        throw Json::other_error::create(501, error.what(), nullptr);
    }

private:
    using Members = std::vector<std::pair<const std::string, Json>>;
    struct OpenValue {
        Json *value;
        std::unordered_map<std::string, std::size_t> places;   // an object's member names
        std::string key;                                      // the member being read
    };
    std::vector<OpenValue> m_open;

    // Puts `value` where the document is now; where it was put.
    Json *put(Json &&value)
    {
        if (m_open.empty()) {
            document = std::move(value);
            return &document;
        }
        OpenValue &into = m_open.back();
        if (into.value->is_array()) {
            Json::array_t &array = into.value->get_ref<Json::array_t &>();
            array.push_back(std::move(value));
            return &array.back();
        }
        Members &members = into.value->get_ref<Json::object_t &>();
        const auto [at, added] = into.places.try_emplace(into.key, members.size());
        if (!added) {
            members[at->second].second = std::move(value);
            return &members[at->second].second;
        }
        members.emplace_back(std::move(into.key), std::move(value));
        return &members.back().second;
    }
    bool place(Json &&value)
    {
        put(std::move(value));
        return true;
    }
    // An open object or array stays where it was put until it is closed: nothing is added to
    // the one that holds it meanwhile.
    bool open(Json &&empty)
    {
        m_open.push_back({put(std::move(empty)), {}, {}});
        return true;
    }
    bool close()
    {
        Json *value = m_open.back().value;
        m_open.pop_back();
        // Moving a value points its members at it (nlohmann's JSON_DIAGNOSTICS paths).
        Json moved = std::move(*value);
        *value = std::move(moved);
        return true;
    }
};

} // namespace

Outcome<Json> parseJson(const QByteArray &text, const QString &source)
{
    if (const qsizetype deep = tooDeepAt(text); deep >= 0)
        return Error{QStringLiteral("%1: JSON nested deeper than %2 levels; Versus reads no deeper")
                         .arg(positionIn(text, deep, source)).arg(kMaxJsonDepth)};
    try {
        LinearJsonBuilder builder;
        Json::sax_parse(text.constData(), text.constData() + text.size(), &builder);
        return std::move(builder.document);
    } catch (const Json::parse_error &error) {
        // error.byte counts from 1 and points just past where parsing stopped.
        const qsizetype offset = std::clamp<qsizetype>(qsizetype(error.byte) - 1, 0, text.size());
        QString what = QString::fromUtf8(error.what());
        what = what.mid(what.indexOf(QLatin1String("] ")) + 2);
        return Error{QStringLiteral("%1: malformed JSON: %2").arg(positionIn(text, offset, source), what)};
    } catch (const nlohmann::json::exception &error) {
        // A number too large for a double ("1e400") is refused while parsing, with no position.
        QString what = QString::fromUtf8(error.what());
        return Error{QStringLiteral("%1: malformed JSON: %2").arg(source, what.mid(what.indexOf(QLatin1String("] ")) + 2))};
    }
}

QString jsonErrorMessage(const QString &source, const nlohmann::json::exception &error)
{
    // nlohmann's text: "[json.exception.type_error.302] (/runs/x/0/keys) type must be …".
    QString what = QString::fromUtf8(error.what());
    what = what.mid(what.indexOf(QLatin1String("] ")) + 2);
    if (what.startsWith(QLatin1Char('('))) {
        const int close = what.indexOf(QLatin1String(") "));
        if (close > 0) {
            const QString path = what.mid(1, close - 1);
            return QStringLiteral("%1: at %2: %3").arg(source, path.isEmpty() ? QStringLiteral("/") : path, what.mid(close + 2));
        }
    }
    return QStringLiteral("%1: %2").arg(source, what);
}
