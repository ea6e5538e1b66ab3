#pragma once
// A test's workload given as a function: `event(i, out)` fills event i's commands, for i from 0
// to describe().events − 1. For a test that needs a few events of its own shape without a
// Workload and a CommandSource of its own.

#include "workload.h"

#include <functional>
#include <memory>
#include <utility>

class EventsWorkload : public Workload {
public:
    using EventFunction = std::function<void(long long event, EventCommands &out)>;

    EventsWorkload(WorkloadInfo info, EventFunction event) : m_info(std::move(info)), m_event(std::move(event)) {}
    WorkloadInfo describe() const override { return m_info; }
    Outcome<std::unique_ptr<CommandSource>> open() const override
    {
        return std::unique_ptr<CommandSource>(std::make_unique<Source>(m_info.events, m_event));
    }

private:
    class Source : public CommandSource {
    public:
        Source(long long events, EventFunction event) : m_events(events), m_event(std::move(event)) {}
        bool next(EventCommands &out) override
        {
            if (m_next >= m_events)
                return false;
            out.clear();
            m_event(m_next++, out);
            return true;
        }

    private:
        long long m_events;
        EventFunction m_event;
        long long m_next = 0;
    };

    WorkloadInfo m_info;
    EventFunction m_event;
};

// Per event an INCRBY and, every third event, a SET with a TTL: two commands of two types,
// 3,000 events (1,000 SETs), enough for the live probe, every 10 ms, to read the server several
// times during the timed pass. Used by the tests of what a timed pass reads of the server
// (tests/engine/tst_servertime, tst_servertails).
inline std::shared_ptr<const Workload> counterEvents()
{
    WorkloadInfo info;
    info.name = QStringLiteral("counter-events");
    info.events = 3000;
    info.commands = info.events + (info.events + 2) / 3;
    info.types = {QStringLiteral("counter"), QStringLiteral("string")};
    return std::make_shared<EventsWorkload>(info, [](long long i, EventCommands &out) {
        out.add("counter", {"INCRBY", "n:" + std::to_string(i % 200), "2"});
        if (i % 3 == 0)
            out.add("string", {"SET", "s:" + std::to_string(i % 300), "value", "EX", "900"});
    });
}
