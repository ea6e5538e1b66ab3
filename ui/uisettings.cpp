#include "uisettings.h"

#include <QFileInfo>
#include <QSettings>
#include <algorithm>
#include <vector>

namespace UiSettings {

QStringList selectedServers() { return QSettings().value(QStringLiteral("servers/selected")).toStringList(); }
void setSelectedServers(const QStringList &labels) { QSettings().setValue(QStringLiteral("servers/selected"), labels); }
bool hasServerSelection() { return QSettings().contains(QStringLiteral("servers/selected")); }

QStringList userBinaries() { return QSettings().value(QStringLiteral("servers/binaries")).toStringList(); }
void setUserBinaries(const QStringList &paths) { QSettings().setValue(QStringLiteral("servers/binaries"), paths); }

QStringList endpoints() { return QSettings().value(QStringLiteral("servers/endpoints")).toStringList(); }
void setEndpoints(const QStringList &hostPorts) { QSettings().setValue(QStringLiteral("servers/endpoints"), hostPorts); }

namespace {

const QString kEndpointTls = QStringLiteral("servers/endpointTls");

// Every endpoint's TLS choices, by "host:port", in the order they were added.
std::vector<std::pair<QString, TlsSettings>> allEndpointTls()
{
    QSettings settings;
    std::vector<std::pair<QString, TlsSettings>> all;
    const int count = settings.beginReadArray(kEndpointTls);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        TlsSettings tls;
        tls.enabled = true;
        tls.caCertFile = settings.value(QStringLiteral("caCertFile")).toString();
        tls.certFile = settings.value(QStringLiteral("certFile")).toString();
        tls.keyFile = settings.value(QStringLiteral("keyFile")).toString();
        tls.serverName = settings.value(QStringLiteral("serverName")).toString();
        tls.insecure = settings.value(QStringLiteral("insecure")).toBool();
        all.emplace_back(settings.value(QStringLiteral("endpoint")).toString(), tls);
    }
    settings.endArray();
    return all;
}

} // namespace

TlsSettings endpointTls(const QString &hostPort)
{
    for (const auto &[endpoint, tls] : allEndpointTls()) {
        if (endpoint == hostPort)
            return tls;
    }
    return TlsSettings();
}

void setEndpointTls(const QString &hostPort, const TlsSettings &tls)
{
    std::vector<std::pair<QString, TlsSettings>> all = allEndpointTls();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const auto &entry) { return entry.first == hostPort; }), all.end());
    if (tls.enabled)
        all.emplace_back(hostPort, tls);
    QSettings settings;
    settings.remove(kEndpointTls);
    settings.beginWriteArray(kEndpointTls, int(all.size()));
    for (int i = 0; i < int(all.size()); ++i) {
        settings.setArrayIndex(i);
        const TlsSettings &entry = all[size_t(i)].second;
        settings.setValue(QStringLiteral("endpoint"), all[size_t(i)].first);
        settings.setValue(QStringLiteral("caCertFile"), entry.caCertFile);
        settings.setValue(QStringLiteral("certFile"), entry.certFile);
        settings.setValue(QStringLiteral("keyFile"), entry.keyFile);
        settings.setValue(QStringLiteral("serverName"), entry.serverName);
        settings.setValue(QStringLiteral("insecure"), entry.insecure);
    }
    settings.endArray();
}

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

ResultsViewState resultsView()
{
    QSettings settings;
    ResultsViewState state;
    state.baseline = settings.value(QStringLiteral("view/baseline")).toString();
    state.hidden = settings.value(QStringLiteral("view/hidden")).toStringList();
    state.hidden.removeAll(QString());   // an empty value reads as one empty name
    // Stored by name, so a renumbered enum cannot turn one choice into another.
    state.order = categoryOrderNamed(settings.value(QStringLiteral("view/sort")).toString()).value_or(CategoryOrder::Workload);
    const Outcome<ColorTheme> theme = parseColorTheme(settings.value(QStringLiteral("view/theme")).toString());
    state.theme = theme ? theme.value() : ColorTheme::Light;
    return state;
}

void setResultsView(const ResultsViewState &state)
{
    QSettings settings;
    settings.setValue(QStringLiteral("view/baseline"), state.baseline);
    settings.setValue(QStringLiteral("view/hidden"), state.hidden);
    settings.setValue(QStringLiteral("view/sort"), categoryOrderName(state.order));
    settings.setValue(QStringLiteral("view/theme"), colorThemeName(state.theme));
}

QByteArray windowGeometry() { return QSettings().value(QStringLiteral("window/geometry")).toByteArray(); }
void setWindowGeometry(const QByteArray &geometry) { QSettings().setValue(QStringLiteral("window/geometry"), geometry); }

QStringList recentFiles()
{
    const QStringList stored = QSettings().value(QStringLiteral("files/recent")).toStringList();
    QStringList existing;
    for (const QString &path : stored) {
        if (QFileInfo(path).isFile() && !existing.contains(path) && existing.size() < maxRecentFiles)
            existing << path;
    }
    if (existing != stored)
        QSettings().setValue(QStringLiteral("files/recent"), existing);
    return existing;
}

void addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = QSettings().value(QStringLiteral("files/recent")).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("files/recent"), files);
}

void clearRecentFiles() { QSettings().remove(QStringLiteral("files/recent")); }

} // namespace UiSettings
