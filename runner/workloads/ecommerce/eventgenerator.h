#pragma once
// Generates a realistic, deterministic stream of shopper events: sessions that browse,
// some of which add to cart, check out and buy; Zipf-popular products and categories;
// favourite categories per shopper; ~1% duplicate deliveries. Same options, same events.
// Events come out one at a time in time order, so any size streams in constant memory.

#include "outcome.h"
#include "seededrandom.h"
#include "shopcatalog.h"
#include "shopperevent.h"
#include <QString>
#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

struct GeneratorOptions {
    long long events = 20000;
    long long shoppers = 1500;
    std::uint64_t seed = 1;
    long long startMs = 1772409600000LL;      // 2026-03-02T00:00:00Z
    long long spanMs = 30LL * 24 * 3600 * 1000;  // sessions start over 30 days
};

class EventGenerator {
public:
    explicit EventGenerator(const GeneratorOptions &options);
    ~EventGenerator();

    // The next event in time order; false once `events` events have been produced.
    bool next(ShopperEvent &event);
    long long produced() const { return m_produced; }
    // Shoppers with at least one event produced so far: a shopper appears with the first event
    // of their first session, so a short stream has fewer than `shoppers`.
    long long shoppersAppeared() const { return m_shoppersAppeared; }

private:
    struct Shopper;
    struct Session;
    class Journey;
    struct SessionOrder {
        bool operator()(const Session *a, const Session *b) const;
    };
    struct PendingDuplicate {
        long long dueAt;      // emitted once this many events have been produced
        ShopperEvent event;
    };

    void startSession();
    void buildJourney(Session &session);
    size_t pickShopper();

    GeneratorOptions m_options;
    SeededRandom m_random;
    ShopCatalog m_catalog;
    std::vector<Shopper> m_shoppers;
    ZipfSampler m_shopperActivity;
    size_t m_shoppersSeen = 0;
    long long m_sessionsStarted = 0;
    long long m_expectedSessions = 0;
    long long m_nextSessionStartMs = 0;
    double m_meanSessionGapMs = 0;
    std::priority_queue<Session *, std::vector<Session *>, SessionOrder> m_active;
    std::deque<PendingDuplicate> m_duplicates;
    long long m_produced = 0;
    long long m_transactionSequence = 0;
    std::vector<bool> m_appeared;   // by shopper index: one bit each, 1.25 MB at the 10 million limit
    long long m_shoppersAppeared = 0;
};

// What a recording holds, counted as it was written.
struct EventRecording {
    long long events = 0;
    long long shoppers = 0;   // shoppers with at least one event, not the number asked for
};

// Writes `options.events` events as JSON Lines to `path` (atomicfile.h: a regular file is
// replaced atomically, a device or FIFO written straight). Stops when interrupted (interruption.h).
Outcome<EventRecording> writeEventRecording(const GeneratorOptions &options, const QString &path);
