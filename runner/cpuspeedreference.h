#pragma once
// The usual speed of this machine, kept between runs in the per-user cache, since a run that
// starts while the machine is slow cannot learn the usual speed from itself:
// - the CPU: the best time of the fixed CPU loop ever seen here;
// - memory: the lower quartile of the memory walk's latency over the last 30 timed passes.
//   Its best single figure would not do: one walk in hundreds ran 25% faster than any pass.

#include <QString>
#include <deque>
#include <mutex>

class CpuSpeedReference {
public:
    // `path` holds {"cpu_model": ..., "best_loop_ns": ..., "recent_chase_ns": [...]}; a missing,
    // unreadable or other machine's file means no reference yet.
    CpuSpeedReference(QString path, QString cpuModel);

    // ${XDG_CACHE_HOME:-~/.cache}/versus/cpu-loop.json, beside the server cache.
    static QString defaultPath();

    double bestLoopNanoseconds() const;    // 0: none yet
    double usualChaseNanoseconds() const;  // 0: fewer than 5 passes seen
    // Keeps `nanoseconds` if it beats the reference; a failed write only loses the memory.
    void offer(double nanoseconds);
    // Adds one timed pass's memory walk latency.
    void offerChase(double nanosecondsPerStep);

private:
    void save() const;   // requires m_mutex

    mutable std::mutex m_mutex;
    QString m_path;
    QString m_cpuModel;
    double m_best = 0;
    std::deque<double> m_recentChase;
};
