#pragma once
// Helpers shared by the benchmarks: the fetched servers (as the tests find them), simple
// statistics, and Versus's own peak memory. Header-only: each bench_*.cpp is its own program.

#include "serverspec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>
#include <sys/resource.h>

namespace Bench {

inline QString serverCacheDir()
{
    const QString explicitDir = qEnvironmentVariable("VERSUS_SERVER_CACHE");
    if (!explicitDir.isEmpty())
        return explicitDir;
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty())
        cache = QDir::homePath() + QStringLiteral("/.cache");
    return cache + QStringLiteral("/versus/servers");
}

struct FetchedServer {
    ServerSpec spec;
    QStringList cliCommand;   // valkey-cli through the version's private loader; may be empty
};

// Every <cache>/<label>/manifest.json with a usable "command", sorted by label.
inline std::vector<FetchedServer> fetchedServers()
{
    std::vector<FetchedServer> servers;
    const QDir cache(serverCacheDir());
    for (const QString &label : cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QFile file(cache.filePath(label + QStringLiteral("/manifest.json")));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
        QStringList command;
        for (const QJsonValue &part : manifest.value(QLatin1String("command")).toArray())
            command << part.toString();
        if (command.isEmpty() || !QFileInfo(command.first()).isExecutable())
            continue;
        FetchedServer server;
        ServerSpec &spec = server.spec;
        spec.label = manifest.value(QLatin1String("label")).toString(label);
        spec.identity.product = manifest.value(QLatin1String("product")).toString();
        spec.identity.version = manifest.value(QLatin1String("version")).toString();
        spec.binaryPath = manifest.value(QLatin1String("binary")).toString();
        spec.binarySha256 = manifest.value(QLatin1String("sha256")).toString();
        spec.suite = manifest.value(QLatin1String("suite")).toString();
        spec.packageVersion = manifest.value(QLatin1String("package_version")).toString();
        spec.source = QStringLiteral("cache");
        spec.program = command.takeFirst();
        spec.prefixArguments = command;
        for (const QJsonValue &part : manifest.value(QLatin1String("cli_command")).toArray())
            server.cliCommand << part.toString();
        servers.push_back(server);
    }
    return servers;
}

inline std::optional<FetchedServer> findServer(const QString &labelPrefix)
{
    for (const FetchedServer &server : fetchedServers())
        if (server.spec.label.startsWith(labelPrefix))
            return server;
    return std::nullopt;
}

inline double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

inline double mean(const std::vector<double> &values)
{
    double sum = 0;
    for (double v : values)
        sum += v;
    return values.empty() ? 0 : sum / double(values.size());
}

// Sample standard deviation over the mean, in percent.
inline double cvPercent(const std::vector<double> &values)
{
    if (values.size() < 2)
        return 0;
    const double m = mean(values);
    double squares = 0;
    for (double v : values)
        squares += (v - m) * (v - m);
    return m == 0 ? 0 : 100.0 * std::sqrt(squares / double(values.size() - 1)) / m;
}

// A field of /proc/self/status in kB ("VmHWM", "VmRSS"), or -1.
inline long long procStatusKb(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').first().toLongLong();
    return -1;
}

// CPU time (user + system) this process has used, in ms: unlike wall time it hardly moves
// when other programs compete for the cores.
inline double cpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

[[noreturn]] inline void fail(const QString &message)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    std::exit(1);
}

} // namespace Bench
