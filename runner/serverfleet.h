#pragma once
// Starts several servers at once and stops them all. Each server lives in its own QThread
// from start to stop: a ServerProcess (and its QProcess) must be started, used and stopped in
// one thread, and that thread must outlive the server (PR_SET_PDEATHSIG follows the thread).
// Starting and stopping run in parallel, so starting N servers takes about as long as the
// slowest one, not the sum.
//
// Used by `versus servers --check` style code and the integration tests. The replay engine
// does not use it: its worker threads own their ServerProcess directly.

#include "outcome.h"
#include "serverspec.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

class ServerProcess;

struct FleetServerState {
    enum class State { Pending, Starting, Ready, Failed, Stopping, Stopped };
    int index = 0;
    QString label;
    State state = State::Pending;
    QString error;        // why it failed (with the log tail), when Failed
    int port = 0;         // 127.0.0.1:port while Ready
    qint64 pid = 0;       // while Ready; kept after stop so callers can check it is gone
    QStringList logTail;  // captured when it failed or stopped
};

QString fleetStateName(FleetServerState::State state);

class ServerFleet {
public:
    // Called from the server's own thread on every change: queue it to reach the GUI.
    using StateCallback = std::function<void(const FleetServerState &)>;

    explicit ServerFleet(std::vector<ServerSpec> specs);
    ~ServerFleet();   // stopAll()
    ServerFleet(const ServerFleet &) = delete;
    ServerFleet &operator=(const ServerFleet &) = delete;

    void setStateCallback(StateCallback callback) { m_callback = std::move(callback); }
    // Appended to every server's command line (ServerProcess::setExtraArguments).
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }

    // Starts every server in parallel and blocks until each is ready or has failed.
    // One Status per spec, in spec order. A failure leaves the others running.
    std::vector<Status> startAll(int readyTimeoutMs = 10000);
    // Stops every server in parallel (SHUTDOWN NOSAVE, terminate, kill) and ends the threads.
    void stopAll();

    int size() const { return int(m_members.size()); }
    FleetServerState state(int index) const;
    std::vector<FleetServerState> states() const;
    // Runs `task` in the thread that owns server `index` and waits for it; the server is
    // null when that spec never started. For anything that must touch the ServerProcess.
    void runOn(int index, const std::function<void(ServerProcess *)> &task);

private:
    struct Member;
    void publish(Member &member, const std::function<void(FleetServerState &)> &change);

    std::vector<std::unique_ptr<Member>> m_members;
    StateCallback m_callback;
    QStringList m_extraArguments;
};
