#pragma once
// JSON through nlohmann, the project's one JSON library: Qt strings, optional members, and
// errors that name the file, the line and the JSON path of what was wrong. Built with
// JSON_DIAGNOSTICS, so every nlohmann type error carries the path of the value at fault.

#include "outcome.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

using Json = nlohmann::ordered_json;

namespace nlohmann {
template <>
struct adl_serializer<QString> {
    template <typename BasicJson>
    static void to_json(BasicJson &json, const QString &text) { json = text.toStdString(); }
    template <typename BasicJson>
    static void from_json(const BasicJson &json, QString &text)
    {
        text = QString::fromStdString(json.template get<std::string>());
    }
};
} // namespace nlohmann

// Throws nlohmann's own error for `value`, so the message carries its path.
[[noreturn]] void failAtJson(const Json &value, const std::string &message);
// failAtJson() unless `value` is an object (an array): "expected an object, got string".
void requireObject(const Json &value);
void requireArray(const Json &value);

// Reads `json` into `out`. Integers must be integers: 2.5 or 1e400 where a count belongs is
// an error, not a rounding.
template <typename T>
void readValue(const Json &json, T &out)
{
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (!json.is_number_integer())
            failAtJson(json, std::string("expected an integer, got ") + json.type_name());
    }
    json.get_to(out);
}

// Reads `object[key]` into `out` when present; absent leaves `out` alone.
template <typename T>
void readOptional(const Json &object, const char *key, T &out)
{
    const auto found = object.find(key);
    if (found != object.end())
        readValue(*found, out);
}

// Objects keyed by Qt strings ("by_type", "errors", …), each value read by readValue().
template <typename Value>
void from_json(const Json &json, std::map<QString, Value> &out)
{
    requireObject(json);
    out.clear();
    for (const auto &[key, value] : json.items())
        readValue(value, out[QString::fromStdString(key)]);
}

void from_json(const Json &json, QStringList &out);

// The other way: a JSON object keyed by the map's Qt strings.
template <typename Value>
Json toJsonObject(const std::map<QString, Value> &values)
{
    Json object = Json::object();
    for (const auto &[key, value] : values)
        object[key.toStdString()] = value;
    return object;
}

// A number JSON can hold: non-finite values (a division that had nothing to divide) are null.
Json finiteOrNull(double value);

// How deeply arrays and objects may nest in any JSON Versus reads. nlohmann's parser and
// its values recurse per level (a 100,000-deep bundle ran out of stack); Versus's own
// documents nest under 10 levels.
inline constexpr int kMaxJsonDepth = 64;

// Parses `text`; a malformed document fails with "<source>:<line>:<column>: …", and so does one
// nested deeper than kMaxJsonDepth, before nlohmann sees it.
Outcome<Json> parseJson(const QByteArray &text, const QString &source);
// "<source>: at /runs/valkey-8.0.1/0/keys: expected an integer, got string" from an error thrown
// while reading a parsed document.
QString jsonErrorMessage(const QString &source, const nlohmann::json::exception &error);
