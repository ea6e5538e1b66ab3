#pragma once
// The TLS options of the commands that connect to servers, named as valkey-cli names them:
// --tls, --cacert FILE, --cert FILE and --key FILE (a client certificate), --sni NAME and
// --insecure (the server's certificate is not checked; off by default, said loudly when on).
// `versus run --tls` also launches its launched servers TLS-only, each with a throwaway
// certificate (tlsauthority.h); the other options are for endpoints.

#include "outcome.h"
#include "tlssettings.h"
#include <QCommandLineParser>
#include <QStringList>

void addTlsOptions(QCommandLineParser &parser);

struct TlsChoice {
    TlsSettings settings;   // enabled: --tls
    QStringList notices;    // --insecure's warning
};

// The options checked together: --cacert, --cert, --key, --sni and --insecure need --tls, --cert
// needs --key (and the other way round), and the files must be readable and belong together. An
// error names the option and the file.
Outcome<TlsChoice> tlsChoiceFromParser(const QCommandLineParser &parser);

// Whether any option beyond --tls was given: they mean nothing to a launched server.
bool hasEndpointTlsOptions(const QCommandLineParser &parser);
