// Why a version differs may be a default, not the code: the settings that differ between the
// compared servers, the ones that bear on memory and server time first.

#include "figures.h"

#include <algorithm>

namespace {

// Each launched server gets its own port, folder, files and password: they always differ.
bool isPerInstance(const QString &name)
{
    static const QStringList names{
        QStringLiteral("port"), QStringLiteral("tls-port"), QStringLiteral("dir"), QStringLiteral("pidfile"),
        QStringLiteral("logfile"), QStringLiteral("unixsocket"), QStringLiteral("dbfilename"),
        QStringLiteral("appenddirname"), QStringLiteral("appendfilename"), QStringLiteral("cluster-config-file"),
        QStringLiteral("bind"), QStringLiteral("requirepass"), QStringLiteral("masterauth"), QStringLiteral("aclfile"),
        QStringLiteral("cluster-announce-port"), QStringLiteral("cluster-port"), QStringLiteral("syslog-ident"),
        QStringLiteral("tls-cert-file"), QStringLiteral("tls-key-file"), QStringLiteral("tls-ca-cert-file"),
        QStringLiteral("tls-client-cert-file"), QStringLiteral("tls-client-key-file"), QStringLiteral("cluster-announce-tls-port"),
    };
    return names.contains(name);
}

bool bearsOnFigures(const QString &name)
{
    static const QStringList parts{
        QStringLiteral("max-listpack"), QStringLiteral("max-ziplist"), QStringLiteral("max-intset"),
        QStringLiteral("list-compress"), QStringLiteral("stream-node-max"), QStringLiteral("lazyfree"),
        QStringLiteral("lazy-flush"), QStringLiteral("io-threads"), QStringLiteral("active-expire"),
        QStringLiteral("activedefrag"), QStringLiteral("active-defrag"), QStringLiteral("maxmemory"),
        QStringLiteral("jemalloc"), QStringLiteral("embstr"), QStringLiteral("hash-seed"),
    };
    if (name == QLatin1String("hz") || name == QLatin1String("dynamic-hz"))
        return true;
    return std::any_of(parts.begin(), parts.end(), [&name](const QString &part) { return name.contains(part); });
}

// An empty value is the setting left unset, which does what a version without the setting
// does: hash-seed empty is a random seed at every start, as before Valkey 9.0 had the setting.
// Empty where it exists and missing elsewhere, such a setting changes neither figure.
bool anySet(const ConfigDifference &difference)
{
    return std::any_of(difference.values.begin(), difference.values.end(), [](const auto &entry) { return !entry.second.isEmpty(); });
}

int rank(const ConfigDifference &difference)
{
    if (difference.bearsOnFigures)
        return 0;
    return difference.everywhere ? 1 : 2;
}

} // namespace

QStringList Figures::configServerIds() const
{
    QStringList ids;
    for (const QString &id : serverIds()) {
        const ServerRun *run = bundle().server(id);
        if (run && !run->config.empty() && summary(id).hasFigures())
            ids << id;
    }
    return ids;
}

std::vector<ConfigDifference> Figures::configDifferences() const
{
    const QStringList ids = configServerIds();
    if (ids.size() < 2)
        return {};
    std::map<QString, ConfigDifference> byName;
    for (const QString &id : ids) {
        for (const auto &[name, value] : bundle().server(id)->config) {
            if (!isPerInstance(name))
                byName[name].values[id] = value;
        }
    }
    std::vector<ConfigDifference> differences;
    for (auto &[name, difference] : byName) {
        difference.name = name;
        difference.everywhere = int(difference.values.size()) == ids.size();
        const QString first = difference.values.begin()->second;
        const bool same = std::all_of(difference.values.begin(), difference.values.end(),
                                      [&first](const auto &entry) { return entry.second == first; });
        if (difference.everywhere && same)
            continue;
        difference.bearsOnFigures = bearsOnFigures(name) && anySet(difference);
        differences.push_back(std::move(difference));
    }
    std::stable_sort(differences.begin(), differences.end(),
                     [](const ConfigDifference &a, const ConfigDifference &b) { return rank(a) < rank(b); });
    return differences;
}
