#pragma once
// Runs blocking work (starting a binary with --version, scanning a recording, asking an
// endpoint for DBSIZE) on Qt's thread pool and hands the result back to the GUI thread as a
// value. The GUI thread never waits for the work, except when the owner is destroyed: then it
// waits for the work still running, so none outlives its receiver.

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <functional>
#include <vector>

class BackgroundTasks : public QObject {
public:
    explicit BackgroundTasks(QObject *parent = nullptr) : QObject(parent) {}
    ~BackgroundTasks() override
    {
        for (QFutureWatcherBase *watcher : m_running)
            watcher->waitForFinished();
    }

    // `work` runs on a pool thread and must only touch what it captured by value.
    // `done` runs later on this object's thread with the result.
    template <typename Result>
    void run(std::function<Result()> work, std::function<void(const Result &)> done)
    {
        auto *watcher = new QFutureWatcher<Result>(this);
        m_running.push_back(watcher);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done = std::move(done)] {
            m_running.erase(std::remove(m_running.begin(), m_running.end(), watcher), m_running.end());
            done(watcher->result());
            watcher->deleteLater();
        });
        watcher->setFuture(QtConcurrent::run(std::move(work)));
    }

private:
    std::vector<QFutureWatcherBase *> m_running;
};
