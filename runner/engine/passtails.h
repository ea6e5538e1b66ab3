#pragma once
// The server-side tails of a timed pass (servertails.h): LATENCY HISTOGRAM for the workload's
// commands on every node's measuring connection at the pass's edges, differenced, summed over a
// cluster's primaries. Latency tracking allocates a histogram per command on its first call, and
// only CONFIG RESETSTAT frees them, so where the tails may land in a memory figure tracking stays
// as it is (docs/MEASUREMENT.md, "Server-side tails"):
// - Switchable (a server Versus launched, started with latency-tracking no): tracking is turned
//   on at the start edge, after the baseline, and at the end edge, once commandstats and the
//   histograms are read, turned off and the histograms freed by CONFIG RESETSTAT before the
//   closing memory reading: neither memory reading holds them;
// - LeftOn (an endpoint whose CONFIG is refused: its histograms were allocated before the first
//   baseline, PassRunner::warm): read by difference, nothing changed;
// - Off (an endpoint whose tracking Versus turned off): not read, the tails unavailable.
// Where LATENCY is refused or a reply is no possible histogram, the tails are unavailable with
// the reason; the pass goes on.

#include "nodesessions.h"
#include "servertails.h"
#include "latencyhistogram.h"
#include <QStringList>
#include <map>
#include <vector>

class PassTails {
public:
    enum class Tracking { Switchable, LeftOn, Off };
    PassTails(NodeSessions &sessions, Tracking tracking) : m_sessions(sessions), m_tracking(tracking) {}
    void setTracking(Tracking tracking) { m_tracking = tracking; }

    // At the start edge, before the server's clock is read: tracking on where Versus may, then
    // every node's histograms of `commands` (upper or lower case).
    void start(const QStringList &commands);
    // At the end edge, after commandstats: the tails of each command of `workload` (its rows,
    // Versus's own calls taken out) whose histogram counted exactly the workload's calls.
    // Switchable: then tracking off and CONFIG RESETSTAT; `beforeReset` receives the loss
    // counters read just before it, which the reset sets back to 0. Only a failed reset is an
    // error: the memory reading after it would hold the histograms.
    Outcome<ServerTails> finish(const std::map<QString, CommandStat> &workload,
                                std::optional<ServerSession::LossCounters> &beforeReset);
    // While an endpoint that keeps its tracking on is warmed: LATENCY HISTOGRAM once, so that
    // the server's histogram of that command (about 24 KB) is allocated before the first
    // baseline, as the workload's own are, and lands in no memory figure.
    void warm(const QStringList &commands);

private:
    // Every node's histograms, or the reason there are none.
    Outcome<std::vector<LatencyHistograms>> readAll();
    ServerTails difference(const std::vector<LatencyHistograms> &after, const std::map<QString, CommandStat> &workload) const;
    Status stopTracking(std::optional<ServerSession::LossCounters> &beforeReset);

    NodeSessions &m_sessions;
    Tracking m_tracking;
    std::vector<std::string> m_request;          // LATENCY HISTOGRAM <commands…>
    std::vector<LatencyHistograms> m_atStart;    // per node
    QString m_unavailable;
    bool m_turnedOn = false;
};
