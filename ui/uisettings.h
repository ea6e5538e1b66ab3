#pragma once
// What the window remembers between launches (QSettings): the server selection, the
// binaries and endpoints the user added, the workload choice, the last folders used, the
// results view (baseline, hidden versions, sort, chart theme), the window's geometry and the
// recent files. Endpoint passwords are never stored.

#include "categoryorder.h"
#include "charttheme.h"
#include "tlssettings.h"
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>

// How the results are shown, as the window restores it after a restart.
struct ResultsViewState {
    QString baseline;                 // a server id; empty: the oldest version
    QStringList hidden;               // server ids left out of the charts
    CategoryOrder order = CategoryOrder::Workload;
    ColorTheme theme = ColorTheme::Light;
};

namespace UiSettings {

QStringList selectedServers();
void setSelectedServers(const QStringList &labels);
bool hasServerSelection();

QStringList userBinaries();
void setUserBinaries(const QStringList &paths);

QStringList endpoints();   // "host:port"
void setEndpoints(const QStringList &hostPorts);
// An endpoint's TLS choices (the files' paths, the server name, whether its certificate is
// checked), never a key's passphrase: not enabled when none are remembered. Named for the
// command line; the window gives them its own names.
TlsSettings endpointTls(const QString &hostPort);
void setEndpointTls(const QString &hostPort, const TlsSettings &tls);   // not enabled: forgotten

QVariant value(const QString &key, const QVariant &fallback = QVariant());
void setValue(const QString &key, const QVariant &value);

QString lastDirectory(const QString &purpose);
void setLastDirectory(const QString &purpose, const QString &directory);

ResultsViewState resultsView();
void setResultsView(const ResultsViewState &state);

QByteArray windowGeometry();   // QWidget::saveGeometry(); empty when never saved
void setWindowGeometry(const QByteArray &geometry);

constexpr int maxRecentFiles = 8;
// Newest first, at most maxRecentFiles; files that no longer exist are dropped (and forgotten).
QStringList recentFiles();
void addRecentFile(const QString &path);   // as an absolute path, moved to the front
void clearRecentFiles();

} // namespace UiSettings
