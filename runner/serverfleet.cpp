#include "serverfleet.h"

#include "serverprocess.h"

#include <QMutex>
#include <QMutexLocker>
#include <QObject>
#include <QThread>
#include <future>

struct ServerFleet::Member {
    ServerSpec spec;
    QThread thread;
    // Lives in `thread`; tasks are queued to it and run by the thread's event loop.
    std::unique_ptr<QObject> context;
    // Created, used and destroyed in `thread` only.
    std::unique_ptr<ServerProcess> server;
    mutable QMutex mutex;
    FleetServerState state;
};

namespace {

std::future<void> postTo(QObject *context, std::function<void()> task)
{
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> future = done->get_future();
    QMetaObject::invokeMethod(
        context, [task = std::move(task), done] {
            task();
            done->set_value();
        },
        Qt::QueuedConnection);
    return future;
}

} // namespace

QString fleetStateName(FleetServerState::State state)
{
    switch (state) {
    case FleetServerState::State::Pending: return QStringLiteral("pending");
    case FleetServerState::State::Starting: return QStringLiteral("starting");
    case FleetServerState::State::Ready: return QStringLiteral("ready");
    case FleetServerState::State::Failed: return QStringLiteral("failed");
    case FleetServerState::State::Stopping: return QStringLiteral("stopping");
    case FleetServerState::State::Stopped: return QStringLiteral("stopped");
    }
    return QString();
}

ServerFleet::ServerFleet(std::vector<ServerSpec> specs)
{
    int index = 0;
    for (ServerSpec &spec : specs) {
        auto member = std::make_unique<Member>();
        member->state.index = index++;
        member->state.label = spec.label.isEmpty() ? spec.identity.label() : spec.label;
        member->spec = std::move(spec);
        member->thread.setObjectName(QStringLiteral("server ") + member->state.label);
        m_members.push_back(std::move(member));
    }
}

ServerFleet::~ServerFleet()
{
    stopAll();
}

void ServerFleet::publish(Member &member, const std::function<void(FleetServerState &)> &change)
{
    FleetServerState snapshot;
    {
        QMutexLocker lock(&member.mutex);
        change(member.state);
        snapshot = member.state;
    }
    if (m_callback)
        m_callback(snapshot);
}

std::vector<Status> ServerFleet::startAll(int readyTimeoutMs)
{
    stopAll();
    std::vector<std::future<void>> started;
    std::vector<Status> results(m_members.size());
    for (size_t i = 0; i < m_members.size(); ++i) {
        Member &member = *m_members[i];
        member.context = std::make_unique<QObject>();
        member.context->moveToThread(&member.thread);
        member.thread.start();
        Status *result = &results[i];
        started.push_back(postTo(member.context.get(), [this, &member, result, readyTimeoutMs] {
            publish(member, [](FleetServerState &state) {
                state.state = FleetServerState::State::Starting;
                state.error.clear();
                state.port = 0;
                state.pid = 0;
                state.logTail.clear();
            });
            member.server = std::make_unique<ServerProcess>(member.spec);
            member.server->setExtraArguments(m_extraArguments);
            *result = member.server->start(readyTimeoutMs);
            ServerProcess &server = *member.server;
            publish(member, [&](FleetServerState &state) {
                if (*result) {
                    state.state = FleetServerState::State::Ready;
                    state.port = server.port();
                    state.pid = server.pid();
                } else {
                    state.state = FleetServerState::State::Failed;
                    state.error = result->error();
                    state.logTail = server.logTail();
                }
            });
        }));
    }
    for (std::future<void> &future : started)
        future.wait();
    return results;
}

void ServerFleet::stopAll()
{
    std::vector<std::future<void>> stopped;
    for (std::unique_ptr<Member> &owned : m_members) {
        Member &member = *owned;
        if (!member.thread.isRunning())
            continue;
        stopped.push_back(postTo(member.context.get(), [this, &member] {
            if (!member.server)
                return;
            const bool wasReady = member.server->isRunning();
            if (wasReady)
                publish(member, [](FleetServerState &state) { state.state = FleetServerState::State::Stopping; });
            member.server->stop();
            const QStringList tail = member.server->logTail();
            member.server.reset();
            if (wasReady) {
                publish(member, [&](FleetServerState &state) {
                    state.state = FleetServerState::State::Stopped;
                    state.logTail = tail;
                });
            }
        }));
    }
    for (std::future<void> &future : stopped)
        future.wait();
    for (std::unique_ptr<Member> &member : m_members) {
        member->thread.quit();
        member->thread.wait();
        // The thread has finished, so its object may be deleted from here.
        member->context.reset();
    }
}

FleetServerState ServerFleet::state(int index) const
{
    const Member &member = *m_members.at(size_t(index));
    QMutexLocker lock(&member.mutex);
    return member.state;
}

std::vector<FleetServerState> ServerFleet::states() const
{
    std::vector<FleetServerState> all;
    for (int i = 0; i < size(); ++i)
        all.push_back(state(i));
    return all;
}

void ServerFleet::runOn(int index, const std::function<void(ServerProcess *)> &task)
{
    Member &member = *m_members.at(size_t(index));
    if (!member.thread.isRunning()) {
        task(nullptr);
        return;
    }
    postTo(member.context.get(), [&member, &task] { task(member.server.get()); }).wait();
}
