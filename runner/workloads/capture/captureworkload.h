#pragma once
// Replays a user's own captured traffic: MONITOR output, a command file or raw RESP. Each
// command is one event. Refused commands (captureparser.h) are skipped and counted, never
// sent. Every command has the single memory-breakdown type "capture": a capture has no
// attribute structure, and replaying one command family alone would not rebuild its keys.

#include "captureparser.h"
#include "workload.h"
#include <mutex>

class CaptureWorkload : public Workload {
public:
    // `path` is the file, `format` what detectCaptureFormat found. With `lenient`, malformed
    // lines are skipped and counted under "malformed line" instead of ending the pass.
    CaptureWorkload(const QString &path, CaptureFormat format, bool lenient);

    WorkloadInfo describe() const override;
    Outcome<std::unique_ptr<CommandSource>> open() const override;

    // Walks the capture once: counts commands and skips, and finds the first error.
    Status countPass() const;
    // Skipped commands of one full pass, by label ("FLUSHALL", "CONFIG SET", "malformed line").
    std::map<std::string, long long> skippedInPass() const;

private:
    QString m_path;
    CaptureFormat m_format;
    bool m_lenient;
    mutable std::mutex m_mutex;
    mutable bool m_counted = false;
    mutable Status m_countStatus;
    mutable WorkloadInfo m_description;
    mutable std::map<std::string, long long> m_skipped;
};
