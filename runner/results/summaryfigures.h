#pragma once
// Each server's figures in one row, as the window's Table tab lists them: the memory figure the
// answer stands on, the reference ratio, µs per command inside the commands and per event, the
// server's main-thread CPU per command in all, the client's pace and latency. Which category each is taken from is decided here, once: a workload with a total
// leads with it; one measured against a reference type (hash-ttl: each pattern a pass of its
// own, no total) with the reference's own figures, set-ex's bytes per key and µs per command,
// and each server's hsetex as a multiple of set-ex, the figures its answer quotes.

#include "figures.h"

#include <map>

struct SummaryFigures {
    QString memoryLabel;     // the memory figure's category when it is not a total ("set-ex"), else empty
    QString timeLabel;       // the time figure's category when it is not a total ("All writes", "set-ex")
    QString ratioLabel;      // the type the ratio is of ("hsetex"); empty without a reference type
    QString referenceType;   // "set-ex"
    // The scope of each figure's category (a total over part of the work says which part).
    QString memoryScope, timeScope, perEventScope, serverCpuScope, eventsScope, latencyScope;

    // A server's figure; an absent Figure where the workload has none.
    const Figure &memory(const QString &id) const { return at(m_memory, id); }
    const Figure &ratio(const QString &id) const { return at(m_ratio, id); }
    const Figure &usecPerCommand(const QString &id) const { return at(m_usecPerCommand, id); }
    const Figure &usecPerEvent(const QString &id) const { return at(m_usecPerEvent, id); }
    // The server's time per command in all: main-thread CPU over the timed work, per command.
    const Figure &serverCpuPerCommand(const QString &id) const { return at(m_serverCpuPerCommand, id); }
    const Figure &eventsPerSecond(const QString &id) const { return at(m_eventsPerSecond, id); }
    const Figure &latencyP99(const QString &id) const { return at(m_latencyP99, id); }

private:
    friend SummaryFigures summaryFigures(const Figures &figures);
    using ByServer = std::map<QString, Figure>;
    static const Figure &at(const ByServer &figures, const QString &id);
    ByServer m_memory, m_ratio, m_usecPerCommand, m_usecPerEvent, m_serverCpuPerCommand, m_eventsPerSecond, m_latencyP99;
};

SummaryFigures summaryFigures(const Figures &figures);
