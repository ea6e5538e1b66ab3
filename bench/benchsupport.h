#pragma once
// Helpers shared by the benchmarks: the fetched servers (from the catalog), simple
// statistics, and Versus's own peak memory. Header-only: each bench_*.cpp is its own program.

#include "servercatalog.h"
#include "serverspec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
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
    return ServerCatalog::defaultCacheDir();
}

struct FetchedServer {
    ServerSpec spec;
    QStringList cliCommand;   // valkey-cli through the version's private loader; may be empty
};

// The usable servers of the cache as the catalog finds them, sorted by label, each with the
// valkey-cli command its manifest records (the catalog keeps it beside the entry).
inline std::vector<FetchedServer> fetchedServers()
{
    ServerCatalog catalog;
    catalog.discover();
    std::vector<FetchedServer> servers;
    for (const CatalogEntry &entry : catalog.entries()) {
        if (!entry.usable() || entry.spec.source != ServerSource::Cache)
            continue;
        FetchedServer server;
        server.spec = entry.spec;
        server.cliCommand = entry.cliCommand;
        servers.push_back(server);
    }
    std::sort(servers.begin(), servers.end(),
              [](const FetchedServer &a, const FetchedServer &b) { return a.spec.label < b.spec.label; });
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

// The three versions bench_stability and bench_noise_floor compare, as fetched.
inline QStringList stabilityServerLabels()
{
    QStringList labels;
    for (const char *prefix : {"valkey-8.0.1", "valkey-8.1.1", "valkey-9.1."}) {
        const std::optional<FetchedServer> found = findServer(QString::fromLatin1(prefix));
        if (!found)
            fail(QStringLiteral("%1 is not fetched: run scripts/fetch-servers").arg(QString::fromLatin1(prefix)));
        labels << found->spec.label;
    }
    return labels;
}

} // namespace Bench
