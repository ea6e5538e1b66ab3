#pragma once
// How to start (or reach) one server: the catalog produces these, the fleet consumes them.

#include "buildorigin.h"
#include "credentials.h"
#include "serveridentity.h"
#include "tlssettings.h"
#include "topology.h"
#include <QString>
#include <QStringList>

// Where a server comes from.
enum class ServerSource {
    Cache,      // scripts/fetch-servers put it in the per-user cache
    Path,       // valkey-server or redis-server on PATH
    User,       // a binary the user pointed at
    Endpoint,   // a server Versus does not launch
};
QString serverSourceName(ServerSource source);   // "cache", "path", "user", "endpoint"

struct ServerSpec {
    ServerIdentity identity;
    QString label;           // unique id, normally identity.label()

    // Launched servers: run `program` with `prefixArguments` and then the server's own
    // arguments. For the trixie/sid builds `program` is the private ld-linux loader and
    // prefixArguments are {"--library-path", dir, "--argv0", "valkey-server", binary}.
    QString program;
    QStringList prefixArguments;
    QString binaryPath;      // the real server binary (for display and sha256)
    QString binarySha256;
    ServerSource source = ServerSource::User;
    // Debian package, upstream build, a user's binary or an endpoint: the build decides the
    // allocator's quantum, so it is part of the server's identity (buildorigin.h).
    BuildOrigin origin;
    // What the server said of its allocator when it was fetched or built (its manifest); a run
    // reads it again from the running server. Empty (quantum 0) when nothing was recorded.
    AllocatorFacts recordedAllocator;

    // Endpoints: servers Versus does not launch.
    bool isEndpoint = false;
    QString host;
    int port = 0;
    QString user;            // AUTH as this ACL user (--user), endpoints only; empty: the default user
    QString password;        // AUTH, endpoints only
    // A node of a cluster: the primaries of its cluster other than the node named here are sent
    // `user` and `password` when they ask for them only with this (--allow-cluster-auth).
    bool authOtherNodes = false;
    // A node of a cluster: its primaries as the consent to flush named them ("127.0.0.1:7000");
    // the run refuses a cluster whose primaries are no longer these. Empty when not probed.
    QStringList consentedPrimaries;

    // Launched servers: standalone, or a cluster of this version launched on this machine.
    Topology topology;
    // --self-check: a second series of the first selected server's build, launched on its own
    // server and interleaved like the others, whose difference from the first is the machine's
    // noise (docs/MEASUREMENT.md, "Self-check"). Never a version of its own.
    bool selfCheck = false;

    // Endpoints: how Versus reaches it (--tls, --cacert, --cert, --key, --sni, --insecure).
    // Launched servers: enabled launches it TLS-only (port 0, tls-port) with a throwaway
    // certificate (tlsauthority.h); the other fields are then unused.
    TlsSettings tls;

    bool isLaunchable() const { return !isEndpoint && !program.isEmpty(); }
    // An endpoint's login: AUTH [user] password; empty without a password.
    Credentials login() const { return Credentials{user, password}; }
};
