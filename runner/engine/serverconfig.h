#pragma once
// --server-config name=value on launched servers, so a user can tell a code change from a
// change of default: each setting is set with CONFIG SET once the server is up; one the server
// takes only at start (io-threads) is given on its command line from then on; one the version
// does not have is refused for that server alone, never fatal for the run. Endpoints are left
// as they are. And what a bundle records of every server's settings (CONFIG GET *).

#include "outcome.h"
#include "resultsbundle.h"
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "serversession.h"

class RedisConnection;

using ServerSettings = std::vector<std::pair<QString, QString>>;

struct ServerConfigOutcome {
    std::map<QString, QString> applied;   // name -> value, as the server reports it afterwards
    std::map<QString, QString> refused;   // name -> why, in words naming the server
    ServerSettings startOnly;             // settings the server takes only at start
};

// Applies `requested` on the server behind `session` (named `serverName` in messages).
// Settings in `givenAtStart` were on its command line: they are only checked.
ServerConfigOutcome applyServerConfig(ServerSession &session, const ServerSettings &requested,
                                      const ServerSettings &givenAtStart, const QString &serverName);
// The command-line arguments that give `settings` at start: "--io-threads", "4", …
QStringList startArguments(const ServerSettings &settings);

// CONFIG GET * for the bundle, with secrets (requirepass, masterauth, …) replaced by "(hidden)";
// refused (a managed service's CONFIG), the refusal instead.
Outcome<ServerSession::SettingsReading> recordedSettings(ServerSession &session);

// A capture's command names as the server's COMMAND INFO flags them: "write", "read"
// (readonly) or "" (neither); names the server does not know are left out.
Outcome<std::map<QString, CommandKind>> commandKinds(RedisConnection &connection, const QStringList &names);

// "hash-max-listpack-entries=64" -> the pair; errors name the setting, after `origin` (the
// option or field it came from: "--server-config: expected name=value, got 'x'"). Only
// settings that change how data is stored or timed are accepted (acceptedSettingsText()), each
// with a plain value; the server's own CONFIG GET then decides whether the version has it.
// "hash-max-listpack-*, …, lfu-decay-time": what parseServerSetting accepts, for help texts.
QString acceptedSettingsText();
Outcome<std::pair<QString, QString>> parseServerSetting(const QString &text,
                                                        const QString &origin = QStringLiteral("--server-config"));
