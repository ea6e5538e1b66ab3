#include "uisettings.h"

#include <QFileInfo>
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
