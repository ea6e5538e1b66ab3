#include "servercatalog.h"

#include "cachefolder.h"
#include "filetrust.h"
#include "groupguardian.h"
#include "processgroup.h"
#include "verifiedrecords.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QVersionNumber>

#include <algorithm>
#include <map>
#include <arpa/inet.h>

namespace {

const QLatin1String kVerifiedRecordsName(".verified.json");

} // namespace

QString ServerCatalog::defaultCacheDir()
{
    const QString overridden = qEnvironmentVariable("VERSUS_SERVER_CACHE");
    if (!overridden.isEmpty())
        return overridden;
    // GenericCacheLocation is $XDG_CACHE_HOME, or ~/.cache when that is unset.
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
           + QStringLiteral("/versus/servers");
}

ServerCatalog::ServerCatalog(QString cacheDir)
    : m_cacheDir(std::move(cacheDir))
{
}

void ServerCatalog::discover()
{
    m_entries.clear();

    // The cache. Hidden folders (.apt, .staging) are fetch-servers' own working state.
    // Nothing in a cache that someone else could change is run, and the record of what was
    // verified before is read only from a cache that passes.
    const QDir cache(m_cacheDir);
    if (cache.exists()) {
        const QString cacheProblem = untrustedFolderReason(m_cacheDir);
        VerifiedRecords records(cacheProblem.isEmpty() ? cache.filePath(kVerifiedRecordsName) : QString());
        records.load();
        const QStringList folders = cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &folder : folders)
            addEntry(entryFromCacheFolder(cache.filePath(folder), cacheProblem, records));
        // Not remembering costs only a --version on the next listing.
        records.save();
    }

    // PATH: a system-wide install, or the user's own build directory on PATH.
    for (const QString &name : {QStringLiteral("valkey-server"), QStringLiteral("redis-server")}) {
        const QString path = QStandardPaths::findExecutable(name);
        if (path.isEmpty())
            continue;
        CatalogEntry entry;
        entry.spec.source = ServerSource::Path;
        entry.spec.origin.kind = BuildKind::UserBinary;
        entry.spec.program = path;
        entry.spec.binaryPath = path;
        entry.spec.label = name;
        Outcome<ServerIdentity> identity = identifyServer(entry.spec);
        if (identity) {
            entry.spec.identity = identity.value();
            entry.spec.label = labelForServer(identity.value(), entry.spec.binaryPath);
            entry.spec.binarySha256 = sha256OfFile(path);
            entry.problem.clear();
        } else {
            entry.problem = identity.error();
        }
        addEntry(std::move(entry));
    }
}

Outcome<ServerSpec> ServerCatalog::addBinary(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return Error{QStringLiteral("%1: no such file").arg(path)};
    if (info.isDir())
        return Error{QStringLiteral("%1: is a directory, not a server binary").arg(path)};
    if (!info.isExecutable())
        return Error{QStringLiteral("%1: not executable (chmod +x it, or point at the server binary)").arg(path)};

    const QString absolute = info.absoluteFilePath();
    for (const CatalogEntry &entry : m_entries) {
        if (entry.usable() && !entry.spec.isEndpoint && entry.spec.program == absolute && entry.spec.prefixArguments.isEmpty())
            return entry.spec;
    }

    CatalogEntry entry;
    entry.spec.source = ServerSource::User;
    entry.spec.origin.kind = BuildKind::UserBinary;
    entry.spec.program = absolute;
    entry.spec.binaryPath = absolute;
    Outcome<ServerIdentity> identity = identifyServer(entry.spec);
    if (!identity)
        return Error{identity.error()};
    entry.spec.identity = identity.value();
    entry.spec.label = labelForServer(identity.value(), entry.spec.binaryPath);
    entry.spec.binarySha256 = sha256OfFile(absolute);
    entry.problem.clear();
    addEntry(std::move(entry));
    return m_entries.back().spec;
}

Outcome<ServerSpec> ServerCatalog::parseEndpoint(const QString &hostPort)
{
    const QString text = hostPort.trimmed();
    // host:port, IPv4:port or [IPv6]:port
    static const QRegularExpression form(QStringLiteral("^(?:\\[([0-9A-Fa-f:.]+)\\]|([^\\s:\\[\\]]+)):(\\d{1,5})$"));
    const QRegularExpressionMatch match = form.match(text);
    if (!match.hasMatch())
        return Error{QStringLiteral("endpoint '%1': expected host:port, e.g. 127.0.0.1:6379 or [::1]:6379").arg(hostPort)};

    const bool bracketed = !match.captured(1).isEmpty();
    const QString host = bracketed ? match.captured(1) : match.captured(2);
    in6_addr ipv6{};
    if (bracketed && inet_pton(AF_INET6, host.toLatin1().constData(), &ipv6) != 1)
        return Error{QStringLiteral("endpoint '%1': '%2' is not an IPv6 address").arg(hostPort, host)};
    static const QRegularExpression hostName(
        QStringLiteral("^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"));
    if (!bracketed && !hostName.match(host).hasMatch())
        return Error{QStringLiteral("endpoint '%1': '%2' is not a host name or IPv4 address").arg(hostPort, host)};

    const int port = match.captured(3).toInt();
    if (port < 1 || port > 65535)
        return Error{QStringLiteral("endpoint '%1': port %2 is outside 1–65535").arg(hostPort).arg(port)};

    ServerSpec spec;
    spec.isEndpoint = true;
    spec.origin.kind = BuildKind::Endpoint;
    spec.source = ServerSource::Endpoint;
    spec.host = host;
    spec.port = port;
    spec.label = text;
    return spec;
}

int ServerCatalog::indexOf(const QString &label) const
{
    for (size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].spec.label == label)
            return int(i);
    }
    return -1;
}

const CatalogEntry *ServerCatalog::find(const QString &label) const
{
    for (const CatalogEntry &entry : m_entries) {
        if (entry.spec.label == label)
            return &entry;
    }
    return nullptr;
}

QString serverSourceName(ServerSource source)
{
    switch (source) {
    case ServerSource::Cache: return QStringLiteral("cache");
    case ServerSource::Path: return QStringLiteral("path");
    case ServerSource::User: return QStringLiteral("user");
    case ServerSource::Endpoint: return QStringLiteral("endpoint");
    }
    return {};
}

std::vector<ServerSpec> ServerCatalog::defaultSelection() const
{
    // One kind of build for every Valkey version, so that no default compares a build with
    // another's allocator: the upstream release builds (what most deployments run) when each
    // version has one, else the Debian packages (or binaries on PATH). Source trees are never
    // chosen for the user.
    std::map<QString, ServerSpec> upstream;
    std::map<QString, ServerSpec> packaged;
    std::vector<ServerSpec> selection;
    for (const CatalogEntry &entry : m_entries) {
        const ServerSpec &spec = entry.spec;
        if (!entry.usable() || !spec.isLaunchable() || spec.identity.product != QLatin1String("valkey") || spec.origin.isSourceTree())
            continue;
        // Development builds all say 255.255.255 and are no release of either kind: each is its own.
        if (spec.identity.isDevelopmentBuild())
            selection.push_back(spec);
        else
            (spec.origin.isReleaseBuild() ? upstream : packaged).emplace(spec.identity.version, spec);   // the catalog's first
    }
    const bool everyVersionUpstream = std::all_of(packaged.begin(), packaged.end(), [&upstream](const auto &entry) {
        return upstream.count(entry.first) > 0;
    });
    for (auto &[version, spec] : everyVersionUpstream ? upstream : packaged)
        selection.push_back(std::move(spec));
    // Equal versions (development builds) keep the catalog's order.
    std::sort(selection.begin(), selection.end(), [this](const ServerSpec &a, const ServerSpec &b) {
        return indexOf(a.label) < indexOf(b.label);
    });
    std::stable_sort(selection.begin(), selection.end(), [](const ServerSpec &a, const ServerSpec &b) {
        return QVersionNumber::compare(QVersionNumber::fromString(a.identity.version),
                                       QVersionNumber::fromString(b.identity.version)) < 0;
    });
    return selection;
}

void ServerCatalog::addEntry(CatalogEntry entry)
{
    // The first one keeps the plain label; a later one with the same label says where it is from.
    if (find(entry.spec.label)) {
        const QString base = entry.spec.label + QLatin1Char('-') + serverSourceName(entry.spec.source);
        QString label = base;
        for (int n = 2; find(label); ++n)
            label = base + QLatin1Char('-') + QString::number(n);
        entry.spec.label = label;
    }
    m_entries.push_back(std::move(entry));
}

Outcome<QString> serverVersionOutput(const ServerSpec &spec, int timeoutMs)
{
    const QString who = spec.binaryPath.isEmpty() ? spec.program : spec.binaryPath;
    if (spec.program.isEmpty())
        return Error{QStringLiteral("%1: no program to run").arg(who.isEmpty() ? spec.label : who)};

    // Its own session and group, ended as a whole: a wrapper script's children go with it,
    // also when it hangs or Versus is killed meanwhile (groupguardian.h).
    GroupGuardian guardian;
    if (Status opened = guardian.open(); !opened)
        return Error{QStringLiteral("%1: %2").arg(who, opened.error())};
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setChildProcessModifier(guardian.childSetup());
    process.start(spec.program, spec.prefixArguments + QStringList{QStringLiteral("--version")});
    if (!process.waitForStarted(timeoutMs))
        return Error{QStringLiteral("%1: cannot run it: %2").arg(who, process.errorString())};
    guardian.started();
    const qint64 group = process.processId();
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished) {
        endProcessGroup(group, 0, 1000);
        process.waitForFinished(1000);
    }
    guardian.release();   // whatever the wrapper left behind ends now
    if (!finished) {
        return Error{QStringLiteral("%1: --version did not finish within %2 ms, so it is not a Valkey or Redis server")
                         .arg(who)
                         .arg(timeoutMs)};
    }
    const QString output = QString::fromLocal8Bit(process.readAll().left(64 * 1024));
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        return Error{QStringLiteral("%1: --version failed (%2): %3")
                         .arg(who,
                              process.exitStatus() == QProcess::NormalExit
                                  ? QStringLiteral("exit code %1").arg(process.exitCode())
                                  : QStringLiteral("crashed"),
                              output.simplified().left(300))};
    }
    return output;
}

Outcome<ServerIdentity> identifyServer(const ServerSpec &spec, int timeoutMs)
{
    const Outcome<QString> output = serverVersionOutput(spec, timeoutMs);
    if (!output)
        return Error{output.error()};
    Outcome<ServerIdentity> identity = parseServerVersionOutput(output.value());
    if (!identity)
        return Error{QStringLiteral("%1: %2").arg(spec.binaryPath.isEmpty() ? spec.program : spec.binaryPath, identity.error())};
    return identity;
}
