#include "tlssettings.h"

#include <QFileInfo>
#include <QStringList>

QString tlsDescription(const TlsSettings &tls)
{
    if (!tls.enabled)
        return QStringLiteral("plain TCP");
    QStringList parts;
    if (tls.insecure)
        parts << QStringLiteral("WITHOUT checking the server's certificate (--insecure)");
    else if (tls.caCertFile.isEmpty())
        parts << QStringLiteral("server certificate checked against the system's trusted CAs");
    else
        parts << QStringLiteral("server certificate checked against %1").arg(QFileInfo(tls.caCertFile).fileName());
    if (!tls.serverName.isEmpty())
        parts << QStringLiteral("SNI %1").arg(tls.serverName);
    if (!tls.certFile.isEmpty())
        parts << QStringLiteral("client certificate %1").arg(QFileInfo(tls.certFile).fileName());
    return QStringLiteral("TLS (%1)").arg(parts.join(QStringLiteral(", ")));
}

QString transportName(const TlsSettings &tls)
{
    if (!tls.enabled)
        return QStringLiteral("plain");
    return tls.insecure ? QStringLiteral("tls-unchecked") : QStringLiteral("tls");
}

QString insecureWarning(const QString &where)
{
    return QStringLiteral("WARNING: --insecure: the TLS certificate of %1 is NOT checked; anyone on the path can read and "
                          "change the traffic, the password included")
        .arg(where);
}
