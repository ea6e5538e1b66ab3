#include "tlsauthority.h"

#include <QDir>
#include <QFile>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

// Named, not anonymous: TlsAuthority::Parts holds them.
namespace TlsAuthorityObjects {

struct Freer {
    void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); }
    void operator()(X509 *certificate) const { X509_free(certificate); }
    void operator()(BIO *bio) const { BIO_free(bio); }
};
using KeyPointer = std::unique_ptr<EVP_PKEY, Freer>;
using CertificatePointer = std::unique_ptr<X509, Freer>;

} // namespace TlsAuthorityObjects

using namespace TlsAuthorityObjects;

namespace {

QString openSslError()
{
    const unsigned long error = ERR_get_error();
    ERR_clear_error();
    if (error == 0)
        return QStringLiteral("unknown error");
    char buffer[256];
    ERR_error_string_n(error, buffer, sizeof buffer);
    return QString::fromLatin1(buffer);
}

bool addExtension(X509 *certificate, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

// A certificate for `key`, named `commonName`, issued by `issuer` (itself when null) and signed
// with `issuerKey`, with the extensions given as OpenSSL's config strings.
CertificatePointer makeCertificate(EVP_PKEY *key, const QString &commonName, X509 *issuer, EVP_PKEY *issuerKey,
                                   const std::vector<std::pair<int, const char *>> &extensions)
{
    CertificatePointer certificate(X509_new());
    if (!certificate)
        return nullptr;
    X509_set_version(certificate.get(), 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f;   // positive
    BIGNUM *number = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate.get()));
    BN_free(number);
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 2 * 24 * 3600);
    X509_set_pubkey(certificate.get(), key);
    X509_NAME *name = X509_get_subject_name(certificate.get());
    const QByteArray common = commonName.toUtf8();
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(common.constData()), -1, -1, 0);
    X509 *signer = issuer ? issuer : certificate.get();
    X509_set_issuer_name(certificate.get(), X509_get_subject_name(signer));
    for (const auto &[nid, value] : extensions) {
        if (!addExtension(certificate.get(), signer, nid, value))
            return nullptr;
    }
    if (X509_sign(certificate.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0)
        return nullptr;
    return certificate;
}

QByteArray pemOf(X509 *certificate)
{
    std::unique_ptr<BIO, Freer> bio(BIO_new(BIO_s_mem()));
    PEM_write_bio_X509(bio.get(), certificate);
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, int(length));
}

// The key's PEM, written straight to the file so that no copy of it outlives this call.
Status writeKeyFile(const QString &path, EVP_PKEY *key)
{
    std::unique_ptr<BIO, Freer> bio(BIO_new(BIO_s_secmem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return Error{QStringLiteral("cannot encode the key for %1: %2").arg(path, openSslError())};
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Error{QStringLiteral("cannot create %1: %2").arg(path, file.errorString())};
    if (file.write(data, length) != length || !file.flush())
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString())};
    return Status::success();
}

Status writeNewFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Error{QStringLiteral("cannot create %1: %2").arg(path, file.errorString())};
    if (file.write(bytes) != bytes.size() || !file.flush())
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString())};
    return Status::success();
}

} // namespace

struct TlsAuthority::Parts {
    KeyPointer key;
    CertificatePointer certificate;
    QString name;
};

TlsAuthority::TlsAuthority(std::unique_ptr<Parts> parts) : m_parts(std::move(parts)) {}
TlsAuthority::~TlsAuthority() = default;

Outcome<std::shared_ptr<const TlsAuthority>> TlsAuthority::create(const QString &name)
{
    ERR_clear_error();
    auto parts = std::make_unique<Parts>();
    parts->name = name;
    parts->key.reset(EVP_EC_gen("P-256"));
    if (!parts->key)
        return Error{QStringLiteral("cannot make a key for the TLS certificate authority: %1").arg(openSslError())};
    parts->certificate = makeCertificate(parts->key.get(), QStringLiteral("Versus throwaway CA (%1)").arg(name), nullptr, nullptr,
                                         {{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
                                          {NID_key_usage, "critical,keyCertSign,cRLSign"},
                                          {NID_subject_key_identifier, "hash"}});
    if (!parts->certificate)
        return Error{QStringLiteral("cannot make the TLS certificate authority: %1").arg(openSslError())};
    return std::shared_ptr<const TlsAuthority>(new TlsAuthority(std::move(parts)));
}

QByteArray TlsAuthority::caCertificatePem() const
{
    return pemOf(m_parts->certificate.get());
}

Outcome<TlsServerFiles> TlsAuthority::issueServerFiles(const QString &folder, const QString &prefix) const
{
    return issue(folder, prefix, true);
}

Outcome<TlsServerFiles> TlsAuthority::issueClientFiles(const QString &folder, const QString &prefix) const
{
    return issue(folder, prefix, false);
}

Outcome<TlsServerFiles> TlsAuthority::issue(const QString &folder, const QString &prefix, bool server) const
{
    ERR_clear_error();
    const QDir dir(folder);
    const TlsServerFiles files{dir.filePath(prefix + QStringLiteral("ca.crt")),
                               dir.filePath(prefix + (server ? QStringLiteral("server.crt") : QStringLiteral("client.crt"))),
                               dir.filePath(prefix + (server ? QStringLiteral("server.key") : QStringLiteral("client.key")))};
    KeyPointer key(EVP_EC_gen("P-256"));
    if (!key)
        return Error{QStringLiteral("cannot make a key for %1: %2").arg(files.keyFile, openSslError())};
    // A server's certificate serves the cluster bus as a client too (tls-cluster): both uses.
    const CertificatePointer certificate =
        makeCertificate(key.get(), server ? QStringLiteral("127.0.0.1") : QStringLiteral("versus client"),
                        m_parts->certificate.get(), m_parts->key.get(),
                        {{NID_basic_constraints, "critical,CA:FALSE"},
                         {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                         {NID_ext_key_usage, server ? "serverAuth,clientAuth" : "clientAuth"},
                         {NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"},
                         {NID_authority_key_identifier, "keyid"}});
    if (!certificate)
        return Error{QStringLiteral("cannot make the certificate %1: %2").arg(files.certFile, openSslError())};
    if (!QFile::exists(files.caCertFile)) {
        if (Status written = writeNewFile(files.caCertFile, caCertificatePem()); !written)
            return Error{written.error()};
    }
    if (Status written = writeNewFile(files.certFile, pemOf(certificate.get())); !written)
        return Error{written.error()};
    if (Status written = writeKeyFile(files.keyFile, key.get()); !written)
        return Error{written.error()};
    return files;
}

TlsSettings launchedServerTls(const TlsServerFiles &server, const TlsServerFiles &client)
{
    TlsSettings tls;
    tls.enabled = true;
    tls.caCertFile = server.caCertFile;
    tls.certFile = client.certFile;
    tls.keyFile = client.keyFile;
    return tls;
}
