#pragma once
// TLS under a connection's own socket I/O (hiredis 0.14 has none): OpenSSL on the connected
// TCP socket, non-blocking, through a socket BIO that sends with MSG_NOSIGNAL. The handshake is
// bounded by the connect's deadline; afterwards every read and write is a StreamIo call that
// never blocks, so the connection's deadlines hold over TLS as they do without it.
// Private to the servers library: OpenSSL is linked PRIVATE, and no header names its types.

#include "outcome.h"
#include "streamio.h"
#include "tlssettings.h"
#include <chrono>
#include <memory>

// Takes over `fd` (a connected TCP socket to `host`, left open for its owner to close) and
// shakes hands before `deadline`. The error is the reason alone ("the server's certificate
// was not accepted: …", "the port does not answer TLS …"); the caller names the endpoint.
Outcome<std::unique_ptr<StreamIo>> startTls(int fd, const TlsSettings &settings, const QString &host,
                                            std::chrono::steady_clock::time_point deadline);
