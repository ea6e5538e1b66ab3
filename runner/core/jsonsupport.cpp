#include "jsonsupport.h"

#include <algorithm>
#include <cmath>

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

} // namespace

Outcome<Json> parseJson(const QByteArray &text, const QString &source)
{
    if (const qsizetype deep = tooDeepAt(text); deep >= 0)
        return Error{QStringLiteral("%1: JSON nested deeper than %2 levels; Versus reads no deeper")
                         .arg(positionIn(text, deep, source)).arg(kMaxJsonDepth)};
    try {
        return Json::parse(text.constData(), text.constData() + text.size());
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
