#pragma once
// Which ACL users on an endpoint are the temporary replay users Versus makes (replayaccess.h),
// and which only share their name's start. A user is Versus's when it has exactly Versus's
// shape, read with ACL GETUSER: the name `versus-replay-` and 12 lowercase hex digits, on, one
// password, every key and channel, and Versus's command rules (replayrules.h). Any other user
// named versus-replay-… (an owner's "versus-replay-prod") is someone else's: named, never
// deleted.

#include "outcome.h"
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

class RedisConnection;
struct Reply;

struct ReplayUsers {
    QStringList versus;                                  // of Versus's exact shape
    std::vector<std::pair<QString, QString>> others;     // name, why it is not one Versus made

    // "versus-replay-prod is not one Versus made (its rules differ): left as it is", one each.
    QStringList othersLeft(const QString &where) const;
};

// A new temporary user's name: versus-replay- and 12 random hex digits.
QString newReplayUserName();

// Why the user `name`, whose ACL GETUSER reply is `user`, is not one Versus made: "its name is
// not of the form Versus gives", "its rules differ"; empty when it is one.
QString notVersussBecause(const QString &name, const Reply &user);

// The users named versus-replay-… on the server `connection` reaches (ACL USERS, then ACL
// GETUSER each). An error names the server when ACL USERS is refused or fails.
Outcome<ReplayUsers> replayUsersOn(RedisConnection &connection);
