#pragma once
// The process's request to stop: SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal closed) all
// mean "stop cleanly and keep what was done". A signal handler may only set a flag; long work
// that runs outside an event loop (preparing a workload, generating a recording) polls it, and
// the command-line front ends turn it into a clean cancel and exit code 130.
// The window never installs the handlers, so for it interruptRequested() stays false.

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (idempotent).
void installInterruptHandlers();
bool interruptRequested();
// The signal that asked, 0 when none did.
int interruptSignal();
// For tests and for work that asks the same way without a signal.
void requestInterrupt(int signalNumber);
