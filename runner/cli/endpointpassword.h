#pragma once
// The password `versus run` sends (AUTH) to host:port endpoints, from the first of these that
// is given:
// - --askpass: typed at the terminal without echo; read from stdin (one line) when stdin is
//   not a terminal, so `secret-tool lookup … | versus run --askpass` works;
// - --password: kept for scripts, but visible to every local user in /proc/<pid>/cmdline;
// - $VERSUS_PASSWORD;
// - $VALKEYCLI_AUTH, then $REDISCLI_AUTH: the variables valkey-cli and redis-cli read, so a
//   shell set up for them works as it is. Using one of them is said on stderr (it may have
//   been exported for another server).
// An option on the command line says more about this run than the environment it inherited,
// so it wins; a variable it overrides is named in a notice. --askpass and --password together
// are an error.
// --user NAME logs in as that ACL user (AUTH NAME password), as valkey-cli's --user does; it
// needs a password from one of the sources above. --allow-cluster-auth lets the login go to
// the primaries of a cluster endpoint's cluster other than the node named
// (clustermembership.h).

#include "outcome.h"
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

inline constexpr const char *kPasswordVariable = "VERSUS_PASSWORD";
// valkey-cli's variables, read after kPasswordVariable, in this order.
inline constexpr const char *kCliPasswordVariables[] = {"VALKEYCLI_AUTH", "REDISCLI_AUTH"};

// --askpass, --password, --user and --allow-cluster-auth, for the commands that talk to endpoints.
void addPasswordOptions(QCommandLineParser &parser);
// Refuses --askpass with --password, and an empty --user; reads nothing.
Status checkPasswordOptions(const QCommandLineParser &parser);

struct EndpointPassword {
    QString user;          // --user; empty: the default user
    QString password;      // empty: none given
    QStringList notices;   // e.g. "VERSUS_PASSWORD is set, but --password is given and used"
};

// The password from the sources above; prompts for --askpass. Ctrl-C at the prompt restores
// the terminal, fails, and raises SIGINT again for the handler that was installed before.
Outcome<EndpointPassword> readEndpointPassword(const QCommandLineParser &parser);

// How to give a missing password, for the "needs a password" message: the sources above.
QString howToGivePassword();
