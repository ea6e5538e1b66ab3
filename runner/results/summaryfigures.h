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
    // The server-side p99 of its slowest command (Figures::serverTails), "≤ 33 µs", and every
    // command's server-side p50, p99 and p99.9, one line each: "SET: p50 ≤ 1 µs, p99 ≤ 2 µs, p99.9
    // ≤ 8 µs". Absent with the reason where the server has no tails.
    const Figure &serverP99(const QString &id) const { return at(m_serverP99, id); }
    QString serverP99Command(const QString &id) const;
    QString serverTailsText(const QString &id) const;

private:
    friend SummaryFigures summaryFigures(const Figures &figures);
    using ByServer = std::map<QString, Figure>;
    static const Figure &at(const ByServer &figures, const QString &id);
    ByServer m_memory, m_ratio, m_usecPerCommand, m_usecPerEvent, m_serverCpuPerCommand, m_eventsPerSecond, m_latencyP99;
    ByServer m_serverP99;
    std::map<QString, QString> m_serverP99Command, m_serverTailsText;
};

SummaryFigures summaryFigures(const Figures &figures);
// The server-side tails of the Table tab, for summaryFigures() (summarytails.cpp): each
// server's slowest command by p99, and every command's p50, p99 and p99.9 as lines.
void summariseTails(const Figures &figures, const QStringList &ids, std::map<QString, Figure> &slowestP99,
                    std::map<QString, QString> &slowestCommand, std::map<QString, QString> &lines);
