#pragma once
// Who a connection authenticates as. Passwords live in memory and in a launched server's 0600
// config file only: never on a command line, in a log line or in a results bundle.

#include <QString>

struct Credentials {
    QString user;       // empty: the default user (AUTH <password>)
    QString password;   // empty: no AUTH at all
    bool empty() const { return password.isEmpty(); }
};
