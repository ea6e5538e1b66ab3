#pragma once
// The usual speed of this machine: the best time of the fixed CPU loop ever seen here, kept
// between runs in the per-user cache. A run that starts while the machine is slow cannot
// learn the usual speed from itself.

#include <QString>

class CpuSpeedReference {
public:
    // `path` holds {"cpu_model": ..., "best_loop_ns": ...}; a missing, unreadable or other
    // machine's file means no reference yet.
    CpuSpeedReference(QString path, QString cpuModel);

    // ${XDG_CACHE_HOME:-~/.cache}/versus/cpu-loop.json, beside the server cache.
    static QString defaultPath();

    double bestLoopNanoseconds() const { return m_best; }   // 0: none yet
    // Keeps `nanoseconds` if it beats the reference; a failed write only loses the memory.
    void offer(double nanoseconds);

private:
    QString m_path;
    QString m_cpuModel;
    double m_best = 0;
};
