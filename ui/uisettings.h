#pragma once
// What the window remembers between launches (QSettings): the server selection, the
// binaries and endpoints the user added, the workload choice and the last folders used.
// Endpoint passwords are never stored.

#include <QString>
#include <QStringList>
#include <QVariant>

namespace UiSettings {

QStringList selectedServers();
void setSelectedServers(const QStringList &labels);
bool hasServerSelection();

QStringList userBinaries();
void setUserBinaries(const QStringList &paths);

QStringList endpoints();   // "host:port"
void setEndpoints(const QStringList &hostPorts);

QVariant value(const QString &key, const QVariant &fallback = QVariant());
void setValue(const QString &key, const QVariant &value);

QString lastDirectory(const QString &purpose);
void setLastDirectory(const QString &purpose, const QString &directory);

} // namespace UiSettings
