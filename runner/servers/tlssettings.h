#pragma once
// How a connection is secured: plain TCP, or TLS with what to trust and what to show. The names
// are valkey-cli's (--tls, --cacert, --cert, --key, --sni, --insecure). Only file paths are
// held: a private key is read by OpenSSL when a connection is made, never copied into a log, a
// message or a results bundle.

#include "outcome.h"
#include <QString>

// Where the user gives each TLS choice, as messages name it to say what to change: valkey-cli's
// options by default ("give the server's CA with --cacert"); the window names its fields
// instead ("… with “CA certificates”"). Each is put where the option's name goes.
struct TlsChoiceNames {
    QString tlsOn = QStringLiteral("give --tls");          // what to do for a TLS port
    QString tlsOff = QStringLiteral("leave out --tls");    // what to do for a plain port
    QString caCert = QStringLiteral("--cacert");
    QString cert = QStringLiteral("--cert");
    QString key = QStringLiteral("--key");
    QString serverName = QStringLiteral("--sni");
};

struct TlsSettings {
    bool enabled = false;
    // The CAs that may sign the server's certificate (PEM); empty: the system's trusted CAs.
    QString caCertFile;
    // A client certificate and its key (PEM), for servers that ask for one (tls-auth-clients).
    QString certFile;
    QString keyFile;
    // The name sent in the handshake (SNI) and checked against the certificate; empty: the host
    // connected to (its name, or its IP address, which is then checked but not sent).
    QString serverName;
    // The server's certificate is not checked at all: anyone between Versus and the server can
    // read and change the traffic. Off by default and said loudly when on.
    bool insecure = false;
    // How messages about these settings name them; no part of what the connection does.
    TlsChoiceNames names;

    // The choices alone: two settings named for the command line and the window are equal.
    bool operator==(const TlsSettings &other) const
    {
        return enabled == other.enabled && caCertFile == other.caCertFile && certFile == other.certFile
            && keyFile == other.keyFile && serverName == other.serverName && insecure == other.insecure;
    }
    bool operator!=(const TlsSettings &other) const { return !(*this == other); }
};

// For logs, notices and the bundle: "plain TCP", "TLS (server certificate checked against
// ca.crt, SNI cache.example.com, client certificate)", "TLS WITHOUT checking the server's
// certificate (--insecure)". Names no key file.
QString tlsDescription(const TlsSettings &tls);
// Whether the files of `settings` can be read and go together (CA file, certificate and key),
// without connecting: for option checks before a run. The error names the file. (tlsio.cpp)
Status checkTlsFiles(const TlsSettings &settings);
// For the bundle: "plain", "tls", or "tls-unchecked" (--insecure).
QString transportName(const TlsSettings &tls);
// The loud sentence --insecure gets in stderr, the run's log and the bundle's notes.
QString insecureWarning(const QString &where);
