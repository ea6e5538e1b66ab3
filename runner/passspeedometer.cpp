#include "passspeedometer.h"

#include "cpupinning.h"
#include "memorychase.h"
#include "resultsstats.h"
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <thread>

namespace {

// Enough steps to average over thousands of cache misses, few enough (about 7 ms) not to
// stretch the pass. The walk touches 2.5 MB of lines and so evicts the server's L2 (1 MB on
// the development machine's CPU family; the virtual machine does not report its caches);
// refilling it is an estimated 1.6 ms (16,000 lines at about 100 ns), so samples are a
// second apart to keep that well under 1% of the pass.
constexpr int kChaseSteps = 40000;

// A sample whose probe could not run on the servers' CPU is 0, and not a speed.
double medianOf(std::vector<double> values)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return v <= 0; }), values.end());
    return spreadOf(std::move(values)).median;
}

int percentAbove(double value, double usual)
{
    return int(std::lround((value / usual - 1) * 100));
}

} // namespace

PassVerdict judgePass(const MachineSpeed &speed, double usualLoopNs, double usualChaseNs)
{
    PassVerdict verdict;
    QStringList reasons;
    if (usualLoopNs > 0 && speed.loopNs > usualLoopNs * kCpuSlowMargin)
        reasons << QStringLiteral("CPU %1% slower than usual (fixed loop %2 ms against %3 ms)")
                       .arg(percentAbove(speed.loopNs, usualLoopNs))
                       .arg(speed.loopNs / 1e6, 0, 'f', 2)
                       .arg(usualLoopNs / 1e6, 0, 'f', 2);
    if (usualChaseNs > 0 && speed.chaseNs > usualChaseNs * kMemorySlowMargin)
        reasons << QStringLiteral("memory %1% slower than usual (%2 ns per step against %3 ns)")
                       .arg(percentAbove(speed.chaseNs, usualChaseNs))
                       .arg(speed.chaseNs, 0, 'f', 0)
                       .arg(usualChaseNs, 0, 'f', 0);
    verdict.slow = !reasons.isEmpty();
    verdict.reason = reasons.join(QStringLiteral(", "));
    return verdict;
}

PassSpeedometer::PassSpeedometer(std::shared_ptr<CpuSpeedReference> reference, Options options)
    : m_reference(std::move(reference)), m_options(std::move(options))
{
}

PassSpeedometer::~PassSpeedometer() = default;

MachineSpeed PassSpeedometer::sampleNow(int serverCpu)
{
    if (m_options.sampler)
        return m_options.sampler(serverCpu);
    MachineSpeed sample;
    sample.samples = 1;
    // On the servers' CPU: a replay CPU can be slower than theirs for minutes, and a walk
    // there would measure that instead of their memory.
    runOnCpu(serverCpu, [&] {
        sample.loopNs = std::min(fixedLoopNanoseconds(), fixedLoopNanoseconds());
        sample.chaseNs = m_chase->nanosecondsPerStep(kChaseSteps);
    });
    return sample;
}

PassVerdict PassSpeedometer::judge(const MachineSpeed &speed) const
{
    if (!m_reference)
        return PassVerdict();
    return judgePass(speed, m_reference->bestLoopNanoseconds(), m_reference->usualChaseNanoseconds());
}

QString PassSpeedometer::begin(int phase, int serverCpu, const std::atomic<bool> *cancelled)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (phase == m_phase)
        return m_waited;
    // Built here, in a replay thread before the pass starts: the shuffle takes tens of
    // milliseconds, which neither the GUI thread nor a timed pass should wait for.
    if (!m_options.sampler && !m_chase)
        m_chase = std::make_unique<MemoryChase>();
    m_phase = phase;
    m_serverCpu = serverCpu;
    m_samples.clear();
    m_waited.clear();
    const auto start = std::chrono::steady_clock::now();
    const auto limit = std::chrono::milliseconds(m_options.settleLimitMs);
    MachineSpeed sample = sampleNow(serverCpu);
    PassVerdict verdict = judge(sample);
    while (verdict.slow && !(cancelled && cancelled->load()) && std::chrono::steady_clock::now() - start < limit) {
        std::this_thread::sleep_for(m_options.retry);
        sample = sampleNow(serverCpu);
        verdict = judge(sample);
    }
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (verdict.slow && m_options.settleLimitMs > 0)
        m_waited = QStringLiteral("still %1 after waiting %2 s").arg(verdict.reason).arg(waited, 0, 'f', 1);
    else if (waited >= 0.1)
        m_waited = QStringLiteral("waited %1 s for the machine's usual speed").arg(waited, 0, 'f', 1);
    m_samples.push_back(sample);
    m_lastSample = std::chrono::steady_clock::now();
    return m_waited;
}

void PassSpeedometer::tick()
{
    std::unique_lock<std::mutex> lock(m_mutex, std::try_to_lock);
    // Another thread sampling right now has this moment covered.
    if (!lock.owns_lock())
        return;
    const bool sampling = m_phase != m_judgedPhase;   // begun and not yet finished
    if (!sampling || std::chrono::steady_clock::now() - m_lastSample < m_options.sampleInterval)
        return;
    m_samples.push_back(sampleNow(m_serverCpu));
    m_lastSample = std::chrono::steady_clock::now();
}

PassSpeedometer::Judgement PassSpeedometer::finish(int phase, int attempt)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (phase == m_judgedPhase)
        return m_judgement;
    m_judgedPhase = phase;
    // A pass that ended before its first tick still has the sample taken at its start.
    if (phase == m_phase)
        m_samples.push_back(sampleNow(m_serverCpu));
    std::vector<double> loops;
    std::vector<double> chases;
    for (const MachineSpeed &sample : m_samples) {
        loops.push_back(sample.loopNs);
        chases.push_back(sample.chaseNs);
    }
    Judgement judgement;
    judgement.speed.loopNs = medianOf(loops);
    judgement.speed.chaseNs = medianOf(chases);
    judgement.speed.samples = int(m_samples.size());
    m_samples.clear();
    if (m_reference) {
        judgement.verdict = judge(judgement.speed);
        m_reference->offer(judgement.speed.loopNs);
        m_reference->offerChase(judgement.speed.chaseNs);
    }
    judgement.retime = judgement.verdict.slow && attempt <= m_options.retimeLimit;
    m_judgement = judgement;
    return m_judgement;
}
