#include "interruption.h"

#include <atomic>
#include <csignal>
#include <initializer_list>

namespace {

// Lock-free atomics are async-signal-safe; nothing else is touched in the handler.
std::atomic<int> requestedBy{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need a lock-free flag");

void onSignal(int signalNumber)
{
    requestedBy.store(signalNumber);
}

} // namespace

void installInterruptHandlers()
{
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // SA_RESTART keeps Qt's and hiredis's reads as they were; poll() returns EINTR regardless.
    action.sa_flags = SA_RESTART;
    for (int signalNumber : {SIGINT, SIGTERM, SIGHUP})
        sigaction(signalNumber, &action, nullptr);
}

bool interruptRequested()
{
    return requestedBy.load() != 0;
}

int interruptSignal()
{
    return requestedBy.load();
}

void requestInterrupt(int signalNumber)
{
    requestedBy.store(signalNumber);
}
