#include "replayrules.h"

#include <QRandomGenerator>

namespace {

const char *const kExcludedCategories[] = {"admin", "dangerous", "blocking", "pubsub", "connection"};
// INFO is read-only; XREAD and XREADGROUP are @blocking only with BLOCK, a form the capture
// reader skips before sending (captureparser.h); ASKING, which a cluster client sends before a
// command an ASK reply redirected, lets only that next command of its own connection into a
// slot being imported.
const char *const kAllowedAgain[] = {"PING", "ECHO", "INFO", "XREAD", "XREADGROUP", "ASKING"};
const char *const kScripts[] = {"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"};
// @scripting subcommands whose effect escapes the workload's keys: other clients' scripts
// killed, the server's functions or script cache deleted or replaced.
const char *const kEscapingScriptSubcommands[] = {"script|flush",   "script|kill",   "function|flush",
                                                  "function|delete", "function|kill", "function|restore"};

bool startsWith(const std::string &text, const char *prefix)
{
    return text.rfind(prefix, 0) == 0;
}

} // namespace

namespace ReplayRules {

QString launchedUserName()
{
    return QStringLiteral("versus-replay");
}

QStringList userRules()
{
    QStringList rules{QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@all")};
    for (const char *category : kExcludedCategories)
        rules << QStringLiteral("-@") + QLatin1String(category);
    for (const char *command : kAllowedAgain)
        rules << QStringLiteral("+") + QString::fromLatin1(command).toLower();
    rules << QStringLiteral("-migrate");
    for (const char *subcommand : kEscapingScriptSubcommands)
        rules << QStringLiteral("-") + QLatin1String(subcommand);
    return rules;
}

QString randomPassword()
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex());
}

bool isRefusal(const std::string &replyText)
{
    return startsWith(replyText, "NOPERM") || startsWith(replyText, "ERR ACL failure in script")
        || startsWith(replyText, "ERR The user executing the script can't run this command");
}

bool isScriptCommand(const QString &upperName)
{
    for (const char *script : kScripts) {
        if (upperName == QLatin1String(script))
            return true;
    }
    return false;
}

bool mayBeSentUnguarded(const QString &name, const QStringList &categories)
{
    if (isScriptCommand(name) || name == QLatin1String("MIGRATE") || categories.isEmpty())
        return false;
    for (const char *subcommand : kEscapingScriptSubcommands) {
        if (name.compare(QLatin1String(subcommand), Qt::CaseInsensitive) == 0)
            return false;
    }
    for (const char *command : kAllowedAgain) {
        if (name == QLatin1String(command))
            return true;
    }
    for (const char *category : kExcludedCategories) {
        if (categories.contains(QStringLiteral("@") + QLatin1String(category)))
            return false;
    }
    return true;
}

} // namespace ReplayRules
