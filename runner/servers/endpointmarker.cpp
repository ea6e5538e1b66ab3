#include "endpointmarker.h"

#include "atomicfile.h"
#include "jsonsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <csignal>
#include <sys/stat.h>

namespace {

constexpr qint64 kLargestMarker = 64 * 1024;

QString stateFolder()
{
    const QString state = qEnvironmentVariable("XDG_STATE_HOME");
    const QString base = state.startsWith(QLatin1Char('/')) ? state : QDir::homePath() + QStringLiteral("/.local/state");
    return base + QStringLiteral("/versus/endpoints");
}

} // namespace

QString endpointMarkerKey(const QString &runId, const QString &host, int port)
{
    static const QRegularExpression serverRunId(QStringLiteral("^[0-9a-f]{40}$"));
    if (serverRunId.match(runId).hasMatch())
        return runId;
    QString safe;
    for (const QChar c : host)
        safe += c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('-') ? c : QLatin1Char('_');
    return QStringLiteral("address-%1_%2").arg(safe).arg(port);
}

QString endpointMarkerPath(const QString &key)
{
    return QStringLiteral("%1/%2.json").arg(stateFolder(), key);
}

Outcome<std::optional<EndpointMarker>> readEndpointMarker(const QString &key)
{
    const QString path = endpointMarkerPath(key);
    struct stat info{};
    if (::lstat(QFile::encodeName(path).constData(), &info) != 0)
        return std::optional<EndpointMarker>();
    if (!S_ISREG(info.st_mode) || info.st_size > kLargestMarker)
        return Error{QStringLiteral("%1: not a regular file of at most %2 bytes; remove it").arg(path).arg(kLargestMarker)};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("%1: %2").arg(path, file.errorString())};
    const Outcome<Json> json = parseJson(file.read(kLargestMarker), path);
    if (!json)
        return Error{json.error()};
    EndpointMarker marker;
    try {
        readValue(json->at("endpoint"), marker.endpoint);
        readValue(json->at("run_id"), marker.runId);
        readValue(json->at("pid"), marker.pid);
        readValue(json->at("settings"), marker.settings);
    } catch (const nlohmann::json::exception &error) {
        return Error{jsonErrorMessage(path, error)};
    }
    return std::optional<EndpointMarker>(marker);
}

Status writeEndpointMarker(const QString &key, const EndpointMarker &marker)
{
    if (!QDir().mkpath(stateFolder()))
        return Error{QStringLiteral("%1: cannot create the folder").arg(stateFolder())};
    Json json;
    json["endpoint"] = marker.endpoint;
    json["run_id"] = marker.runId;
    json["pid"] = marker.pid;
    json["settings"] = toJsonObject(marker.settings);
    return writeFileAtomically(endpointMarkerPath(key), QByteArray::fromStdString(json.dump(2) + "\n"),
                               PathOrigin::NamedByVersus);
}

void removeEndpointMarker(const QString &key)
{
    QFile::remove(endpointMarkerPath(key));
}

std::vector<QString> staleEndpointMarkers(const QString &endpoint, const QString &runId)
{
    std::vector<QString> stale;
    const QStringList files = QDir(stateFolder()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        const QString key = file.chopped(5);
        const Outcome<std::optional<EndpointMarker>> marker = readEndpointMarker(key);
        if (!marker || !marker.value())
            continue;
        const EndpointMarker &found = *marker.value();
        if (found.endpoint == endpoint && (found.runId != runId || runId.isEmpty()) && !markerWriterAlive(found))
            stale.push_back(key);
    }
    return stale;
}

bool markerWriterAlive(const EndpointMarker &marker)
{
    if (marker.pid <= 0 || ::kill(pid_t(marker.pid), 0) != 0)
        return false;
    QFile comm(QStringLiteral("/proc/%1/comm").arg(marker.pid));
    return comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "versus";
}

std::map<QString, QString> settingsLeftBy(const EndpointMarker &marker, const std::map<QString, QString> &versusValues,
                                          const std::map<QString, QString> &now)
{
    std::map<QString, QString> left;
    for (const auto &[name, owners] : marker.settings) {
        const auto set = versusValues.find(name);
        const auto current = now.find(name);
        if (set != versusValues.end() && current != now.end() && current->second == set->second && owners != set->second)
            left[name] = owners;
    }
    return left;
}
