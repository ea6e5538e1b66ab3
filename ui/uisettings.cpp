#include "uisettings.h"

#include <QSettings>

namespace UiSettings {

QStringList selectedServers() { return QSettings().value(QStringLiteral("servers/selected")).toStringList(); }
void setSelectedServers(const QStringList &labels) { QSettings().setValue(QStringLiteral("servers/selected"), labels); }
bool hasServerSelection() { return QSettings().contains(QStringLiteral("servers/selected")); }

QStringList userBinaries() { return QSettings().value(QStringLiteral("servers/binaries")).toStringList(); }
void setUserBinaries(const QStringList &paths) { QSettings().setValue(QStringLiteral("servers/binaries"), paths); }

QStringList endpoints() { return QSettings().value(QStringLiteral("servers/endpoints")).toStringList(); }
void setEndpoints(const QStringList &hostPorts) { QSettings().setValue(QStringLiteral("servers/endpoints"), hostPorts); }

QVariant value(const QString &key, const QVariant &fallback) { return QSettings().value(key, fallback); }
void setValue(const QString &key, const QVariant &value) { QSettings().setValue(key, value); }

QString lastDirectory(const QString &purpose)
{
    return QSettings().value(QStringLiteral("directories/") + purpose).toString();
}

void setLastDirectory(const QString &purpose, const QString &directory)
{
    QSettings().setValue(QStringLiteral("directories/") + purpose, directory);
}

} // namespace UiSettings
