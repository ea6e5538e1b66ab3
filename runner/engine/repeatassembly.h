#pragma once
// The passes of one repeat, in the order they run, and what each pass's measurement adds to the
// repeat's result: the combined timed pass's memory and timing, each type's memory (and timing,
// when types are timed alone), errors, refusals, redirects and the commands a server did not
// know. Logs what a reader of the run must not miss (refusals, unsupported types) and names an
// unsupported type for the progress line.

#include "passrunner.h"
#include "resultsbundle.h"
#include "runrequest.h"
#include <functional>
#include <vector>

class RepeatAssembly {
public:
    struct Hooks {
        std::function<void(const QString &line)> log;
        std::function<void(const QString &message)> progressMessage;   // "hsetex unsupported"
    };

    RepeatAssembly(const WorkloadInfo &workload, Hooks hooks);

    // The combined timed pass first (unless types are timed alone), then one pass per type.
    static std::vector<PassPlan> plansOf(const WorkloadInfo &workload);
    // Adds the finished pass `plan` measured to `result`.
    void add(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const;

private:
    void recordCombined(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const;
    void recordType(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const;
    void recordRefusals(const QString &label, const PassMeasurement &measured, RepeatResult &result) const;

    const WorkloadInfo &m_workload;
    Hooks m_hooks;
};
