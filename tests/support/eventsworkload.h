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
