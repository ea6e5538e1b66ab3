#pragma once
// A throwaway certificate authority for launched servers over TLS, made with OpenSSL's API
// (no openssl program). Its key lives in memory only and goes with the object; what it issues
// is written into one server's own folder, each file created new with mode 0600: the CA
// certificate, and a certificate for 127.0.0.1 and localhost with its key. The nodes of one
// launched cluster share one authority, so that their cluster bus (tls-cluster) trusts itself.
// Certificates are valid from an hour ago for two days: a run never outlives them.

#include "outcome.h"
#include "tlssettings.h"
#include <QByteArray>
#include <QString>
#include <memory>

struct TlsServerFiles {
    QString caCertFile;     // ca.crt
    QString certFile;       // server.crt
    QString keyFile;        // server.key
};

class TlsAuthority {
public:
    // `name` goes into the certificates' subjects ("Versus throwaway CA (valkey-9.1.2)").
    static Outcome<std::shared_ptr<const TlsAuthority>> create(const QString &name);
    ~TlsAuthority();
    TlsAuthority(const TlsAuthority &) = delete;
    TlsAuthority &operator=(const TlsAuthority &) = delete;

    // A fresh key and certificate for a server on 127.0.0.1, written with the CA certificate
    // into `folder` (ca.crt, unless it is there already, server.crt, server.key; `prefix` goes
    // before each name).
    Outcome<TlsServerFiles> issueServerFiles(const QString &folder, const QString &prefix = {}) const;
    // The same for a client: ca.crt, client.crt and client.key, for a server that asks for a
    // client certificate (tls-auth-clients yes or optional).
    Outcome<TlsServerFiles> issueClientFiles(const QString &folder, const QString &prefix) const;
    QByteArray caCertificatePem() const;

private:
    struct Parts;
    explicit TlsAuthority(std::unique_ptr<Parts> parts);
    Outcome<TlsServerFiles> issue(const QString &folder, const QString &prefix, bool server) const;
    std::unique_ptr<Parts> m_parts;
};

// How Versus connects to a server it launched with `server`'s files: TLS, checked against its
// CA, showing the `client` certificate.
TlsSettings launchedServerTls(const TlsServerFiles &server, const TlsServerFiles &client);
