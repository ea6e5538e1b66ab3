#pragma once
// An address as a user types it and reads it: "127.0.0.1:6379", "localhost:6379", and an IPv6
// address in brackets, "[::1]:6379", so the port cannot be read as part of the address. And
// whether an address a server named (a node of its cluster) is one at all.

#include <QString>

inline QString hostPortText(const QString &host, int port)
{
    if (host.contains(QLatin1Char(':')))
        return QStringLiteral("[%1]:%2").arg(host).arg(port);
    return QStringLiteral("%1:%2").arg(host).arg(port);
}

// An IPv4 address in dotted decimal or an IPv6 address, as inet_pton reads them: nothing to
// resolve.
bool isIpAddress(const QString &text);
// A host name of letters, digits and hyphens, labels joined by dots (RFC 1123): what a resolver
// is asked, and nothing else.
bool isHostName(const QString &text);
// A TCP port a server can listen on.
inline bool isTcpPort(long long port)
{
    return port >= 1 && port <= 65535;
}
