#include "passloadmeter.h"

#include "infoparser.h"

#include <QFile>
#include <QStringList>

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace {

// A /proc file's text; empty when it cannot be read (the process ended, no such counter).
QString procText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromLatin1(file.readAll());
}

long long usecPerTick()
{
    static const long long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? 1000000 / ticks : 10000;
}

// /proc/<pid>/schedstat or a task's: "<ns on a CPU> <ns runnable, waiting for one> <slices>".
std::optional<long long> waitUsecOf(const QString &schedstat)
{
    const QStringList fields = procText(schedstat).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    bool ok = false;
    const long long waitNs = fields.size() >= 2 ? fields[1].toLongLong(&ok) : 0;
    return ok ? std::optional<long long>(waitNs / 1000) : std::nullopt;
}

// utime + stime of /proc/<pid>/stat, every thread of the process: fields 14 and 15, counted
// after the command name's closing parenthesis (a name may hold spaces).
std::optional<long long> processCpuUsec(qint64 pid)
{
    const QString text = procText(QStringLiteral("/proc/%1/stat").arg(pid));
    const int close = text.lastIndexOf(QLatin1Char(')'));
    if (close < 0)
        return std::nullopt;
    const QStringList fields = text.mid(close + 2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (fields.size() < 13)
        return std::nullopt;
    bool userOk = false;
    bool systemOk = false;
    const long long ticks = fields[11].toLongLong(&userOk) + fields[12].toLongLong(&systemOk);
    return userOk && systemOk ? std::optional<long long>(ticks * usecPerTick()) : std::nullopt;
}

// The busy and steal time of `cpus` from /proc/stat's "cpuN user nice system idle iowait irq
// softirq steal …" lines (guest time is inside user).
void readCpuLines(const std::vector<int> &cpus, std::optional<long long> &busy, std::optional<long long> &steal)
{
    long long busyTicks = 0;
    long long stealTicks = 0;
    int found = 0;
    for (const QString &line : procText(QStringLiteral("/proc/stat")).split(QLatin1Char('\n'))) {
        const QStringList fields = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (fields.size() < 9 || !fields[0].startsWith(QLatin1String("cpu")) || fields[0] == QLatin1String("cpu"))
            continue;
        bool ok = false;
        const int cpu = fields[0].mid(3).toInt(&ok);
        if (!ok || std::find(cpus.begin(), cpus.end(), cpu) == cpus.end())
            continue;
        for (int field : {1, 2, 3, 6, 7})
            busyTicks += fields[field].toLongLong();
        stealTicks += fields[8].toLongLong();
        ++found;
    }
    if (found == int(cpus.size()) && found > 0) {
        busy = busyTicks * usecPerTick();
        steal = stealTicks * usecPerTick();
    }
}

std::optional<long long> thisThreadCpuUsec()
{
    timespec now{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0)
        return std::nullopt;
    return (long long)(now.tv_sec) * 1000000 + now.tv_nsec / 1000;
}

std::optional<long long> changeOf(const std::optional<long long> &from, const std::optional<long long> &to)
{
    return from && to && *to >= *from ? std::optional<long long>(*to - *from) : std::nullopt;
}

std::optional<long long> infoField(const std::map<QString, QString> &fields, const char *name)
{
    const auto found = fields.find(QString::fromLatin1(name));
    return found == fields.end() ? std::nullopt : parseInfoCount(found->second);
}

} // namespace

PassLoadMeter::PassLoadMeter(NodeSessions &sessions, qint64 serverPid, std::vector<int> serverCpus, int versusClients)
    : m_sessions(sessions), m_serverPid(serverPid), m_serverCpus(std::move(serverCpus)), m_versusClients(versusClients)
{
}

void PassLoadMeter::start()
{
    m_start = read();
    m_wall.start();
}

PassLoad PassLoadMeter::finish()
{
    const long long wallUsec = m_wall.nsecsElapsed() / 1000;
    const Edge end = read();
    PassLoad load;
    load.wallUsec = wallUsec;
    load.replayCpuUsec = changeOf(m_start.replayCpuUsec, end.replayCpuUsec);
    load.replayWaitUsec = changeOf(m_start.replayWaitUsec, end.replayWaitUsec);
    load.serverWaitUsec = changeOf(m_start.serverWaitUsec, end.serverWaitUsec);
    const std::optional<long long> busy = changeOf(m_start.cpusBusyUsec, end.cpusBusyUsec);
    const std::optional<long long> server = changeOf(m_start.serverProcessUsec, end.serverProcessUsec);
    if (busy && server)
        load.othersOnServerCpuUsec = std::max(0LL, *busy - *server);
    load.stealUsec = changeOf(m_start.cpusStealUsec, end.cpusStealUsec);
    load.forks = changeOf(m_start.totalForks, end.totalForks);
    if (load.forks)
        load.forkRunning = (m_start.forkRunning || end.forkRunning) ? 1 : 0;
    load.evictedKeys = changeOf(m_start.evictedKeys, end.evictedKeys);
    if (m_start.foreignClients && end.foreignClients)
        load.foreignClients = std::max(*m_start.foreignClients, *end.foreignClients);
    return load;
}

PassLoadMeter::Edge PassLoadMeter::read()
{
    Edge edge;
    edge.replayCpuUsec = thisThreadCpuUsec();
    edge.replayWaitUsec = waitUsecOf(QStringLiteral("/proc/self/task/%1/schedstat").arg(long(syscall(SYS_gettid))));
    if (m_serverPid > 0) {
        edge.serverWaitUsec = waitUsecOf(QStringLiteral("/proc/%1/schedstat").arg(m_serverPid));
        edge.serverProcessUsec = processCpuUsec(m_serverPid);
    }
    if (!m_serverCpus.empty())
        readCpuLines(m_serverCpus, edge.cpusBusyUsec, edge.cpusStealUsec);
    readServer(edge);
    return edge;
}

// INFO persistence, stats and clients of every node, summed; a node that refuses one leaves
// its counters absent (an endpoint's ACL), and the pass goes on.
void PassLoadMeter::readServer(Edge &edge)
{
    long long forks = 0;
    long long evicted = 0;
    long long foreign = 0;
    bool complete = true;
    for (int node = 0; node < m_sessions.size() && complete; ++node) {
        ServerSession &session = m_sessions.node(node);
        std::map<QString, QString> fields;
        for (const char *section : {"persistence", "stats", "clients"}) {
            Outcome<QString> text = session.info(section);
            if (text)
                fields.merge(parseInfoFields(text.value()));
        }
        const std::optional<long long> nodeForks = infoField(fields, "total_forks");
        const std::optional<long long> nodeEvicted = infoField(fields, "evicted_keys");
        const std::optional<long long> clients = infoField(fields, "connected_clients");
        complete = nodeForks && nodeEvicted && clients;
        if (!complete)
            break;
        forks += *nodeForks;
        evicted += *nodeEvicted;
        foreign += std::max(0LL, *clients - session.idleClients() - (m_versusClients - 1));
        edge.forkRunning = edge.forkRunning || infoField(fields, "rdb_bgsave_in_progress").value_or(0) > 0
            || infoField(fields, "aof_rewrite_in_progress").value_or(0) > 0;
    }
    if (!complete)
        return;
    edge.totalForks = forks;
    edge.evictedKeys = evicted;
    edge.foreignClients = foreign;
}
