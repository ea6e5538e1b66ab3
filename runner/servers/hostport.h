#pragma once
// An address as a user types it and reads it: "127.0.0.1:6379", "localhost:6379", and an IPv6
// address in brackets, "[::1]:6379", so the port cannot be read as part of the address.

#include <QString>

inline QString hostPortText(const QString &host, int port)
{
    if (host.contains(QLatin1Char(':')))
        return QStringLiteral("[%1]:%2").arg(host).arg(port);
    return QStringLiteral("%1:%2").arg(host).arg(port);
}
