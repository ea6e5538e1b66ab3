#include "cpupinning.h"

#include <QStringList>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <sched.h>
#include <sys/types.h>

namespace {

cpu_set_t toSet(const std::vector<int> &cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus)
        CPU_SET(cpu, &set);
    return set;
}

// 0 means the calling thread.
bool pin(pid_t thread, const std::vector<int> &cpus)
{
    const cpu_set_t set = toSet(cpus);
    return ::sched_setaffinity(thread, sizeof(set), &set) == 0;
}

// The CPUs the calling thread may run on; empty if it cannot be read.
std::vector<int> currentAffinity()
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

// The best of the times; 0 entries (a CPU that could not be raced) do not count.
double fastestOf(const std::vector<double> &times)
{
    double best = 0;
    for (double time : times) {
        if (time > 0 && (best == 0 || time < best))
            best = time;
    }
    return best;
}

QString cpuList(const std::vector<int> &cpus)
{
    QStringList names;
    for (int cpu : cpus)
        names << QString::number(cpu);
    return names.join(QLatin1Char(','));
}

} // namespace

std::optional<CpuPlan> CpuPlan::forThisMachine()
{
    CpuPlan plan;
    plan.allowedCpus = currentAffinity();
    if (plan.allowedCpus.size() < 2)
        return std::nullopt;
    plan.serverCpus = {plan.allowedCpus.back()};
    plan.replayCpus.assign(plan.allowedCpus.begin(), plan.allowedCpus.end() - 1);
    return plan;
}

CpuPlan CpuPlan::withServerOn(int serverCpu) const
{
    CpuPlan plan;
    plan.allowedCpus = allowedCpus;
    plan.serverCpus = {serverCpu};
    for (int cpu : allowedCpus) {
        if (cpu != serverCpu)
            plan.replayCpus.push_back(cpu);
    }
    return plan;
}

double fixedLoopNanoseconds()
{
    const auto start = std::chrono::steady_clock::now();
    volatile unsigned long sink = 0;
    for (unsigned long n = 0; n < 4000000; ++n)
        sink = sink + n * n;
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

bool runOnCpu(int cpu, const std::function<void()> &work)
{
    const std::vector<int> before = currentAffinity();
    if (!pin(0, {cpu}))
        return false;
    work();
    if (!before.empty())
        pin(0, before);
    return true;
}

std::vector<double> timeFixedLoopOn(const std::vector<int> &cpus)
{
    std::vector<double> nanoseconds(cpus.size(), 0.0);
    // Two rounds, alternating CPUs, best of each: a single interruption does not decide.
    for (int round = 0; round < 2; ++round) {
        for (size_t i = 0; i < cpus.size(); ++i) {
            runOnCpu(cpus[i], [&] {
                const double elapsed = fixedLoopNanoseconds();
                nanoseconds[i] = nanoseconds[i] == 0 ? elapsed : std::min(nanoseconds[i], elapsed);
            });
        }
    }
    return nanoseconds;
}

ServerCpuChooser::ServerCpuChooser(CpuPlan allowed, Race race)
    : m_allowed(std::move(allowed)), m_race(std::move(race)), m_current(m_allowed)
{
}

CpuPlan ServerCpuChooser::choose(const std::vector<double> &times) const
{
    const double best = fastestOf(times);
    // Near-ties go to the higher CPU: CPU 0 is where the kernel tends to put its own work.
    int fastest = -1;
    for (size_t i = 0; i < times.size(); ++i) {
        if (times[i] > 0 && times[i] <= best * 1.02)
            fastest = int(i);
    }
    CpuPlan plan = fastest < 0 ? m_allowed : m_allowed.withServerOn(m_allowed.allowedCpus[size_t(fastest)]);
    plan.loopNanoseconds = times;
    return plan;
}

CpuPlan ServerCpuChooser::planFor(int phase)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (phase != m_phase) {
        m_phase = phase;
        m_current = choose(m_race(m_allowed.allowedCpus));
    }
    return m_current;
}

double CpuPlan::serverLoopMilliseconds() const
{
    for (size_t i = 0; i < allowedCpus.size() && i < loopNanoseconds.size(); ++i) {
        if (allowedCpus[i] == serverCpus.front())
            return loopNanoseconds[i] / 1e6;
    }
    return 0;
}

QString CpuPlan::describe() const
{
    QString text = QStringLiteral("server on CPU %1, replay on CPU %2").arg(cpuList(serverCpus), cpuList(replayCpus));
    if (loopNanoseconds.size() == allowedCpus.size() && !loopNanoseconds.empty()) {
        QStringList times;
        for (size_t i = 0; i < allowedCpus.size(); ++i)
            times << QStringLiteral("CPU %1 %2 ms").arg(allowedCpus[i]).arg(loopNanoseconds[i] / 1e6, 0, 'f', 2);
        text += QStringLiteral(" (fixed loop: %1)").arg(times.join(QStringLiteral(", ")));
    }
    return text;
}

CpuPinning::CpuPinning(CpuPlan plan, qint64 serverPid, const QString &serverName)
    : m_plan(std::move(plan)), m_serverPid(serverPid)
{
    m_serverPinned = serverPid > 0 && pin(pid_t(serverPid), m_plan.serverCpus);
    if (!m_serverPinned) {
        m_status = Error{QStringLiteral("%1: cannot pin pid %2 to CPU %3: %4")
                             .arg(serverName).arg(serverPid).arg(cpuList(m_plan.serverCpus),
                                                                 QString::fromLocal8Bit(std::strerror(errno)))};
        return;
    }
    m_selfPinned = pin(0, m_plan.replayCpus);
    if (!m_selfPinned)
        m_status = Error{QStringLiteral("%1: cannot pin the replay thread to CPU %2: %3")
                             .arg(serverName, cpuList(m_plan.replayCpus), QString::fromLocal8Bit(std::strerror(errno)))};
}

CpuPinning::~CpuPinning()
{
    // The server may have died meanwhile; then there is nothing to restore.
    if (m_serverPinned)
        pin(pid_t(m_serverPid), m_plan.allowedCpus);
    if (m_selfPinned)
        pin(0, m_plan.allowedCpus);
}
