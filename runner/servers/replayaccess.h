#pragma once
// How the replay connection reaches a server Versus did not launch (an endpoint) without being
// able to do more than the replay rules allow (replayrules.h):
// - when the endpoint lets Versus create a user, a temporary one (versus-replay-<random>, a
//   random password, the replay rules) that the replay connections authenticate as, deleted
//   by release() at the end of the run, also after a failure or a cancel (the destructor);
// - otherwise (NOPERM, an endpoint without ACL) the replay connections use the user's own
//   login, and Versus itself refuses, before anything is sent, the scripts (EVAL*, FCALL*) and
//   every command of the workload whose ACL categories (COMMAND INFO) fall outside the data
//   categories. Those are skipped and counted, by command, like the server's refusals.
// Blocks: call it from the worker's thread.

#include "credentials.h"
#include "tlssettings.h"
#include "outcome.h"
#include <QString>
#include <QStringList>
#include <set>
#include <string>
#include <vector>

// Commands Versus refuses to send, by upper-case name ("EVAL") or "NAME|SUBCOMMAND" ("CONFIG|SET").
struct SendFilter {
    std::set<std::string> commands;
    std::set<std::string> subcommands;
    bool empty() const { return commands.empty() && subcommands.empty(); }
    // The label a command is refused under ("EVAL", "CONFIG SET"); empty when it may be sent.
    std::string refusalOf(const std::vector<std::string> &args) const;
    // Every refused label, for the log: "CONFIG SET, EVAL, MIGRATE".
    QStringList labels() const;
};

struct EndpointLogin {
    QString host;
    int port = 0;
    QString name;              // prefixes every message: "127.0.0.1:6379"
    Credentials owner;         // the user's own login (default user, --password)
    TlsSettings tls;           // how the endpoint is reached
    int timeoutMs = 10000;
};

class ReplayAccess {
public:
    enum class Mode { OwnLogin, TemporaryUser, CheckedBeforeSending };

    // A launched server: its own replay user; nothing to create or delete.
    static ReplayAccess launched(const Credentials &replayUser);
    // An endpoint: creates the temporary user, or when the endpoint refuses, asks COMMAND INFO
    // for `commandNames` (the workload's distinct commands, upper case) and builds the filter.
    // Fails when neither is possible (COMMAND INFO refused too): then nothing is sent at all.
    static Outcome<ReplayAccess> forEndpoint(const EndpointLogin &login, const QStringList &commandNames);

    ReplayAccess(ReplayAccess &&other) noexcept;
    ReplayAccess &operator=(ReplayAccess &&other) noexcept;
    ReplayAccess(const ReplayAccess &) = delete;
    ReplayAccess &operator=(const ReplayAccess &) = delete;
    ~ReplayAccess();   // release(), ignoring its outcome

    Mode mode() const { return m_mode; }
    const Credentials &replayCredentials() const { return m_replay; }
    const SendFilter &filter() const { return m_filter; }
    // For the log and the bundle: "replay user versus-replay", "temporary ACL user
    // versus-replay-1f2e3d4c", "checked by Versus before sending (ACL SETUSER: NOPERM …)".
    QString description() const;
    // Temporary users (versus-replay-…) the endpoint had before this run made its own: left by
    // a run that was killed, or in use by a run going on now.
    const QStringList &leftoverUsers() const { return m_leftoverUsers; }
    // Deletes the temporary user over a connection of its own (the worker's may be dead).
    // Safe to call more than once; does nothing in the other modes.
    Status release();

private:
    ReplayAccess() = default;
    Status createTemporaryUser(QString *refusal);
    Status buildFilter(const QStringList &commandNames);

    Mode m_mode = Mode::OwnLogin;
    EndpointLogin m_login;
    Credentials m_replay;
    SendFilter m_filter;
    QString m_refusal;       // why the endpoint did not let Versus create a user
    bool m_userExists = false;
    QStringList m_leftoverUsers;
};
