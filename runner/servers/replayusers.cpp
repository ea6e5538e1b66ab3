#include "replayusers.h"

#include "redisconnection.h"
#include "replayrules.h"

#include <QRegularExpression>
#include <map>
#include <set>

namespace {

constexpr const char *kReplayUserPrefix = "versus-replay-";
constexpr int kSuffixLength = 12;

// ACL GETUSER's reply, a flat list of field and value, by field.
std::map<std::string, const Reply *> fieldsOf(const Reply &user)
{
    std::map<std::string, const Reply *> fields;
    for (size_t i = 0; i + 1 < user.elements.size(); i += 2)
        fields[user.elements[i].text] = &user.elements[i + 1];
    return fields;
}

std::set<QString> wordsOf(const QString &text)
{
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return std::set<QString>(words.begin(), words.end());
}

// The command rules as the server describes them: as given (Valkey, Redis 7.2 and later), or
// with a category whose commands another rule touched spelled out as removals of each (Redis
// 7.0 drops -@dangerous and lists its commands, and +info then needs no rule of its own).
bool sameCommandRules(const QString &described)
{
    QStringList expected;
    for (const QString &rule : ReplayRules::userRules()) {
        if (!rule.startsWith(QLatin1Char('~')) && !rule.startsWith(QLatin1Char('&')))
            expected << rule;
    }
    if (described == expected.join(QLatin1Char(' ')))
        return true;
    const std::set<QString> given = wordsOf(described);
    for (const QString &rule : expected) {
        if (!given.count(rule) && rule != QLatin1String("-@dangerous") && rule != QLatin1String("+info"))
            return false;
    }
    for (const QString &word : given) {
        if (!expected.contains(word) && (!word.startsWith(QLatin1Char('-')) || word.contains(QLatin1Char('@'))))
            return false;
    }
    return !given.count(QStringLiteral("-info"));
}

bool textIs(const Reply *value, const char *text)
{
    return value && value->kind != Reply::Kind::Array && value->text == text;
}

bool sameShape(const Reply &user)
{
    const std::map<std::string, const Reply *> fields = fieldsOf(user);
    const auto field = [&](const char *name) { const auto found = fields.find(name); return found == fields.end() ? nullptr : found->second; };
    const Reply *flags = field("flags");
    const Reply *passwords = field("passwords");
    const Reply *commands = field("commands");
    const Reply *selectors = field("selectors");
    if (!flags || !passwords || !commands || passwords->elements.size() != 1 || (selectors && !selectors->elements.empty()))
        return false;
    // "sanitize-payload" is a flag the server adds itself (Valkey 8, Redis 7.2 and later).
    std::set<std::string> flagSet;
    for (const Reply &flag : flags->elements)
        flagSet.insert(flag.text);
    flagSet.erase("sanitize-payload");
    if (flagSet != std::set<std::string>{"on"})
        return false;
    if (const Reply *databases = field("databases"); databases && !textIs(databases, "alldbs"))
        return false;
    return textIs(field("keys"), "~*") && textIs(field("channels"), "&*")
        && sameCommandRules(QString::fromStdString(commands->text));
}

} // namespace

QStringList ReplayUsers::othersLeft(const QString &where) const
{
    QStringList lines;
    for (const auto &[name, why] : others)
        lines << QStringLiteral("%1: %2 is not one Versus made (%3): left as it is").arg(where, name, why);
    return lines;
}

QString newReplayUserName()
{
    return QLatin1String(kReplayUserPrefix) + ReplayRules::randomPassword().left(kSuffixLength);
}

QString notVersussBecause(const QString &name, const Reply &user)
{
    static const QRegularExpression form(QStringLiteral("^versus-replay-[0-9a-f]{%1}$").arg(kSuffixLength));
    if (!form.match(name).hasMatch())
        return QStringLiteral("its name is not of the form Versus gives");
    if (user.kind != Reply::Kind::Array || !sameShape(user))
        return QStringLiteral("its rules differ");
    return QString();
}

Outcome<ReplayUsers> replayUsersOn(RedisConnection &connection)
{
    const Outcome<Reply> users = connection.command({"ACL", "USERS"});
    if (!users)
        return Error{users.error()};
    if (users->isError())
        return Error{QStringLiteral("%1: ACL USERS refused: %2").arg(connection.name(), QString::fromStdString(users->text))};
    ReplayUsers found;
    for (const Reply &name : users->elements) {
        const QString user = QString::fromStdString(name.text);
        if (!user.startsWith(QLatin1String(kReplayUserPrefix)))
            continue;
        const Outcome<Reply> described = connection.command({"ACL", "GETUSER", name.text});
        if (!described)
            return Error{described.error()};
        if (described->kind == Reply::Kind::Nil)
            continue;   // deleted since ACL USERS
        if (described->isError())
            return Error{QStringLiteral("%1: ACL GETUSER %2 refused: %3")
                             .arg(connection.name(), user, QString::fromStdString(described->text))};
        if (const QString why = notVersussBecause(user, described.value()); why.isEmpty())
            found.versus << user;
        else
            found.others.emplace_back(user, why);
    }
    return found;
}
