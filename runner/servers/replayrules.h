#pragma once
// What a workload may make a server do, in one place. The replay connection authenticates as a
// user whose ACL allows data commands only, so the server itself refuses the rest, also when a
// script calls them (ACL rules hold inside EVAL and FCALL). A launched server gets that user in
// its config file (serverprocess.h); an endpoint gets a temporary one when it allows ACL SETUSER,
// and otherwise the same rules are applied by Versus before sending (replayaccess.h).

#include <QString>
#include <QStringList>
#include <string>

namespace ReplayRules {

// The user a launched server's replay connection authenticates as.
QString launchedUserName();

// The ACL rules after "on >password": every key and channel, every command but the ones of
// @admin, @dangerous, @blocking, @pubsub and @connection, with PING, ECHO, INFO, XREAD,
// XREADGROUP (blocking only with BLOCK, which the capture reader skips) and ASKING (a cluster's
// ASK redirect, clusterredirects.h) allowed again
// and MIGRATE removed by name, and so are the scripting subcommands that reach beyond the
// workload's keys (SCRIPT FLUSH and KILL, FUNCTION FLUSH, DELETE, KILL and RESTORE). INFO is
// read-only; it is allowed so that a capture's own INFO is timed like the rest
// (docs/MEASUREMENT.md, "Commands the server refuses").
QStringList userRules();

// A random password of 32 bytes from the system's generator, in hex.
QString randomPassword();

// True when a reply to a workload command is an ACL refusal: NOPERM, or a script whose call
// the ACL refused ("ERR ACL failure in script" on Valkey, "ERR The user executing the script
// can't run this command" on Redis 7.0).
bool isRefusal(const std::string &replyText);

// For endpoints that do not let Versus create a user: whether a command with these ACL
// categories (COMMAND INFO, "@write", …) may be sent. `name` is upper case, "OBJECT" or
// "OBJECT|FREQ". Scripts (EVAL*, FCALL*) are never sent: Versus cannot see what they call.
bool mayBeSentUnguarded(const QString &name, const QStringList &categories);
// EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, FCALL, FCALL_RO.
bool isScriptCommand(const QString &upperName);

} // namespace ReplayRules
