#pragma once
// Runs blocking work (starting a binary with --version, scanning a recording, asking an
// endpoint for DBSIZE) on its own thread and hands the result back to the GUI thread as a
// value, by queued invocation. The GUI thread never waits for the work, except when the
// owner is destroyed: then it joins the threads still running so none outlives its receiver.

#include <QObject>
#include <functional>
#include <map>
#include <thread>

class BackgroundTasks : public QObject {
public:
    explicit BackgroundTasks(QObject *parent = nullptr) : QObject(parent) {}
    ~BackgroundTasks() override
    {
        // Results posted while joining are dropped with this object's pending events.
        for (auto &entry : m_threads)
            entry.second.join();
    }

    // `work` runs on a new thread and must only touch what it captured by value.
    // `done` runs later on this object's thread with the result.
    template <typename Result>
    void run(std::function<Result()> work, std::function<void(const Result &)> done)
    {
        const int id = ++m_lastId;
        m_threads.emplace(id, std::thread([this, id, work = std::move(work), done = std::move(done)] {
            Result result = work();
            QMetaObject::invokeMethod(this, [this, id, result = std::move(result), done] {
                finished(id);
                done(result);
            }, Qt::QueuedConnection);
        }));
    }

    int pending() const { return int(m_threads.size()); }

private:
    void finished(int id)
    {
        auto it = m_threads.find(id);
        if (it == m_threads.end())
            return;
        it->second.join();   // the thread has posted its result and is returning
        m_threads.erase(it);
    }

    std::map<int, std::thread> m_threads;
    int m_lastId = 0;
};
