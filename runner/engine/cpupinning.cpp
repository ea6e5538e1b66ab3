#include "cpupinning.h"

#include <QStringList>
#include <cerrno>
#include <cstring>
#include <sched.h>
#include <sys/types.h>

namespace {

QString cpuList(const std::vector<int> &cpus)
{
    QStringList names;
    for (int cpu : cpus)
        names << QString::number(cpu);
    return names.join(QLatin1Char(','));
}

} // namespace

bool pinToCpus(qint64 thread, const std::vector<int> &cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus)
        CPU_SET(cpu, &set);
    return ::sched_setaffinity(pid_t(thread), sizeof(set), &set) == 0;
}

std::vector<int> cpusOfThisThread()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (::sched_getaffinity(0, sizeof(set), &set) != 0)
        return cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

std::optional<CpuPlan> CpuPlan::forThisMachine()
{
    CpuPlan plan;
    plan.allowedCpus = cpusOfThisThread();
    if (plan.allowedCpus.size() < 2)
        return std::nullopt;
    plan.serverCpus = {plan.allowedCpus.back()};
    plan.replayCpus.assign(plan.allowedCpus.begin(), plan.allowedCpus.end() - 1);
    return plan;
}

QString CpuPlan::describe() const
{
    return QStringLiteral("server on CPU %1, replay on CPU %2").arg(cpuList(serverCpus), cpuList(replayCpus));
}

CpuPinning::CpuPinning(CpuPlan plan, qint64 serverPid, const QString &serverName)
    : m_plan(std::move(plan)), m_serverPid(serverPid)
{
    m_serverPinned = serverPid > 0 && pinToCpus(serverPid, m_plan.serverCpus);
    if (!m_serverPinned) {
        m_status = Error{QStringLiteral("%1: cannot pin pid %2 to CPU %3: %4")
                             .arg(serverName).arg(serverPid).arg(cpuList(m_plan.serverCpus),
                                                                 QString::fromLocal8Bit(std::strerror(errno)))};
        return;
    }
    m_selfPinned = pinToCpus(0, m_plan.replayCpus);
    if (!m_selfPinned)
        m_status = Error{QStringLiteral("%1: cannot pin the replay thread to CPU %2: %3")
                             .arg(serverName, cpuList(m_plan.replayCpus), QString::fromLocal8Bit(std::strerror(errno)))};
}

CpuPinning::~CpuPinning()
{
    // The server may have died meanwhile; then there is nothing to restore.
    if (m_serverPinned)
        pinToCpus(m_serverPid, m_plan.allowedCpus);
    if (m_selfPinned)
        pinToCpus(0, m_plan.allowedCpus);
}
