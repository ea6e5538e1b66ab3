#include "tlsio.h"

#include "boundedfile.h"
#include "hostport.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/proverr.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReadAhead = size_t(256) << 10;

// A socket BIO of our own: recv/send without waiting, and MSG_NOSIGNAL, so a server that closed
// the connection is an error value, never SIGPIPE (OpenSSL's own socket BIO uses write()).
int socketOf(BIO *bio)
{
    return int(reinterpret_cast<intptr_t>(BIO_get_data(bio)));
}

int bioWrite(BIO *bio, const char *data, int length)
{
    BIO_clear_retry_flags(bio);
    const ssize_t sent = ::send(socketOf(bio), data, size_t(length), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0 && socketWouldBlock(errno))
        BIO_set_retry_write(bio);
    return int(sent);
}

int bioRead(BIO *bio, char *buffer, int length)
{
    BIO_clear_retry_flags(bio);
    const ssize_t got = ::recv(socketOf(bio), buffer, size_t(length), MSG_DONTWAIT);
    if (got < 0 && socketWouldBlock(errno))
        BIO_set_retry_read(bio);
    return int(got);
}

long bioControl(BIO *, int command, long, void *)
{
    return command == BIO_CTRL_FLUSH ? 1 : 0;
}

int bioCreate(BIO *bio)
{
    BIO_set_init(bio, 1);
    return 1;
}

const BIO_METHOD *socketMethod()
{
    static BIO_METHOD *const method = [] {
        BIO_METHOD *made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "versus socket");
        BIO_meth_set_write(made, bioWrite);
        BIO_meth_set_read(made, bioRead);
        BIO_meth_set_ctrl(made, bioControl);
        BIO_meth_set_create(made, bioCreate);
        return made;
    }();
    return method;
}

// The newest OpenSSL error's text ("wrong version number"), and its reason code.
QString lastErrorText(unsigned long *code = nullptr)
{
    const unsigned long error = ERR_peek_last_error();
    if (code)
        *code = error;
    if (error == 0)
        return QString();
    const char *reason = ERR_reason_error_string(error);
    char buffer[256];
    if (!reason) {
        ERR_error_string_n(error, buffer, sizeof buffer);
        reason = buffer;
    }
    return QString::fromLatin1(reason);
}

// What an alert or error from the server means for the user, for the reasons that have one.
QString hintFor(unsigned long error, const TlsChoiceNames &names)
{
    if (ERR_GET_LIB(error) != ERR_LIB_SSL)
        return QString();
    switch (ERR_GET_REASON(error)) {
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_UNKNOWN_PROTOCOL:
    case SSL_R_RECORD_LENGTH_MISMATCH:
        return QStringLiteral("the port answered, but not with TLS: is it a plain port? (%1)").arg(names.tlsOff);
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
        return QStringLiteral("the server requires a client certificate: give one with %1 and %2").arg(names.cert, names.key);
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
    case SSL_R_TLSV1_ALERT_DECRYPT_ERROR:
        return QStringLiteral("the server refused the client certificate (%1)").arg(names.cert);
    default:
        return QString();
    }
}

QString withHint(const QString &reason, const QString &hint)
{
    return hint.isEmpty() ? reason : QStringLiteral("%1 (%2)").arg(reason, hint);
}

// Why the server's certificate was not accepted, with what to do about the usual causes.
QString verifyFailure(long result, const TlsSettings &settings, const QString &name)
{
    const QString what = QString::fromLatin1(X509_verify_cert_error_string(result));
    const QString trusted = settings.caCertFile.isEmpty() ? QStringLiteral("the system's trusted CAs") : settings.caCertFile;
    QString hint;
    switch (result) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        hint = QStringLiteral("it is not signed by a CA in %1; give the server's CA with %2").arg(trusted, settings.names.caCert);
        break;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        hint = QStringLiteral("it is not made out to %1; %2 names the host it is for").arg(name, settings.names.serverName);
        break;
    default:
        break;
    }
    return withHint(QStringLiteral("the server's certificate was not accepted: %1").arg(what), hint);
}

struct SslDeleter {
    void operator()(SSL *ssl) const { SSL_free(ssl); }
    void operator()(SSL_CTX *context) const { SSL_CTX_free(context); }
};
using SslPointer = std::unique_ptr<SSL, SslDeleter>;
using ContextPointer = std::unique_ptr<SSL_CTX, SslDeleter>;

// OpenSSL asks for an encrypted key's passphrase on the terminal unless told otherwise: from a
// worker thread, or with no terminal, that would hang. No passphrase is given, ever. That it
// was asked for is noted in `asked` (a bool, when given): OpenSSL then decrypts with an empty
// passphrase, and about one key in 256 comes out with padding that looks right, so the error
// queue says "unsupported" or an ASN.1 error instead of "bad decrypt".
int noPassphrase(char *, int, int, void *asked)
{
    if (asked)
        *static_cast<bool *>(asked) = true;
    return 0;
}

// Every public CA together is under 1 MB: a larger "CA file" is a mistake (a disk image, a
// log), refused by its size rather than read into memory for minutes.
constexpr qint64 kCaFileLimit = qint64(16) << 20;

// The certificates (and CRLs) of the PEM file `path` added to what `context` trusts, as
// SSL_CTX_load_verify_locations would, from a read that is bounded and only of a regular file.
Status trustCertificatesOf(SSL_CTX *context, const QString &path)
{
    const Outcome<QByteArray> pem = readBoundedFile(path, kCaFileLimit, QStringLiteral("a CA certificate file"));
    if (!pem)
        return Error{QStringLiteral("cannot read the CA certificates: %1").arg(pem.error())};
    BIO *bio = BIO_new_mem_buf(pem->constData(), int(pem->size()));
    STACK_OF(X509_INFO) *entries = bio ? PEM_X509_INFO_read_bio(bio, nullptr, nullptr, nullptr) : nullptr;
    BIO_free(bio);
    X509_STORE *store = SSL_CTX_get_cert_store(context);
    int trusted = 0;
    for (int index = 0; entries && index < sk_X509_INFO_num(entries); ++index) {
        const X509_INFO *entry = sk_X509_INFO_value(entries, index);
        trusted += (entry->x509 && X509_STORE_add_cert(store, entry->x509) == 1) ? 1 : 0;
        trusted += (entry->crl && X509_STORE_add_crl(store, entry->crl) == 1) ? 1 : 0;
    }
    sk_X509_INFO_pop_free(entries, X509_INFO_free);
    if (trusted == 0) {
        const QString why = lastErrorText();
        return Error{QStringLiteral("cannot read the CA certificates in %1: %2").arg(path, why.isEmpty() ? QStringLiteral("it holds no PEM certificate") : why)};
    }
    return Status::success();
}

// Said alike whether OpenSSL notices when the key is loaded or when it is checked.
QString keyMismatch(const TlsSettings &settings)
{
    return QStringLiteral("the key given with %1 does not belong to the certificate %2").arg(settings.names.key, settings.certFile);
}

// Why SSL_CTX_use_PrivateKey_file failed, from whether it asked for a passphrase and the whole
// of OpenSSL's error queue: a key that could not be decrypted (encrypted with a passphrase,
// which Versus never gives) is told from a key of another certificate and from a file that
// holds no key at all (a certificate, a malformed PEM), which no passphrase would fix.
QString clientKeyFailure(const TlsSettings &settings, bool askedForPassphrase)
{
    bool undecryptable = askedForPassphrase;
    bool mismatched = false;
    QString firstReason;
    for (unsigned long error = ERR_get_error(); error != 0; error = ERR_get_error()) {
        const int library = ERR_GET_LIB(error);
        const int reason = ERR_GET_REASON(error);
        undecryptable = undecryptable
            || (library == ERR_LIB_PEM && (reason == PEM_R_BAD_DECRYPT || reason == PEM_R_BAD_PASSWORD_READ || reason == PEM_R_PROBLEMS_GETTING_PASSWORD))
            || (library == ERR_LIB_PROV && reason == PROV_R_BAD_DECRYPT) || (library == ERR_LIB_EVP && reason == EVP_R_BAD_DECRYPT)
            || (library == ERR_LIB_PKCS12 && reason == PKCS12_R_PKCS12_CIPHERFINAL_ERROR);
        mismatched = mismatched || (library == ERR_LIB_X509 && (reason == X509_R_KEY_VALUES_MISMATCH || reason == X509_R_KEY_TYPE_MISMATCH));
        if (firstReason.isEmpty() && ERR_reason_error_string(error))
            firstReason = QString::fromLatin1(ERR_reason_error_string(error));
    }
    // The key's path is left out: messages reach logs and bundles, and no path of a key does.
    if (undecryptable)
        return QStringLiteral("the client key given with %1 is encrypted with a passphrase, and a key encrypted with a passphrase "
                              "is not supported: give it decrypted (openssl pkey -in KEY -out DECRYPTED)")
            .arg(settings.names.key);
    if (mismatched)
        return keyMismatch(settings);
    return QStringLiteral("the file given with %1 is not a PEM private key (%2)")
        .arg(settings.names.key, firstReason.isEmpty() ? QStringLiteral("no key found") : firstReason);
}

// The client's context: what to trust, what to show.
Outcome<ContextPointer> makeContext(const TlsSettings &settings)
{
    ERR_clear_error();
    ContextPointer context(SSL_CTX_new(TLS_client_method()));
    if (!context)
        return Error{QStringLiteral("cannot set up TLS: %1").arg(lastErrorText())};
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    if (!settings.insecure) {
        SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
        if (!settings.caCertFile.isEmpty()) {
            if (Status trusted = trustCertificatesOf(context.get(), settings.caCertFile); !trusted)
                return Error{trusted.error()};
        } else if (SSL_CTX_set_default_verify_paths(context.get()) != 1) {
            return Error{QStringLiteral("cannot read the CA certificates in the system's store: %1").arg(lastErrorText())};
        }
    }
    if (settings.certFile.isEmpty() != settings.keyFile.isEmpty())
        return Error{QStringLiteral("a client certificate needs both %1 and %2").arg(settings.names.cert, settings.names.key)};
    if (!settings.certFile.isEmpty()) {
        SSL_CTX_set_default_passwd_cb(context.get(), noPassphrase);
        const QByteArray cert = settings.certFile.toLocal8Bit();
        const QByteArray key = settings.keyFile.toLocal8Bit();
        if (SSL_CTX_use_certificate_chain_file(context.get(), cert.constData()) != 1)
            return Error{QStringLiteral("cannot read the client certificate %1: %2").arg(settings.certFile, lastErrorText())};
        ERR_clear_error();
        bool askedForPassphrase = false;
        SSL_CTX_set_default_passwd_cb_userdata(context.get(), &askedForPassphrase);
        const bool keyLoaded = SSL_CTX_use_PrivateKey_file(context.get(), key.constData(), SSL_FILETYPE_PEM) == 1;
        SSL_CTX_set_default_passwd_cb_userdata(context.get(), nullptr);
        if (!keyLoaded)
            return Error{clientKeyFailure(settings, askedForPassphrase)};
        if (SSL_CTX_check_private_key(context.get()) != 1)
            return Error{keyMismatch(settings)};
    }
    return context;
}

// Which name to send and check: --sni, else the host; an IP address is checked, never sent.
Status nameTheServer(SSL *ssl, const TlsSettings &settings, const QString &host)
{
    const QString name = settings.serverName.isEmpty() ? host : settings.serverName;
    const QByteArray bytes = name.toUtf8();
    if (isIpAddress(name)) {
        if (!settings.insecure && X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), bytes.constData()) != 1)
            return Error{QStringLiteral("cannot check the certificate against %1").arg(name)};
        return Status::success();
    }
    if (SSL_set_tlsext_host_name(ssl, bytes.constData()) != 1)
        return Error{QStringLiteral("cannot send %1 as the server name (SNI): %2").arg(name, lastErrorText())};
    if (!settings.insecure && SSL_set1_host(ssl, bytes.constData()) != 1)
        return Error{QStringLiteral("cannot check the certificate against %1").arg(name)};
    return Status::success();
}

class TlsIo final : public StreamIo {
public:
    TlsIo(int fd, ContextPointer context, SslPointer ssl, TlsChoiceNames names)
        : StreamIo(fd), m_context(std::move(context)), m_ssl(std::move(ssl)), m_names(std::move(names))
    {
    }
    ~TlsIo() override
    {
        // close_notify, once, without waiting: the server then logs a clean close.
        ERR_clear_error();
        SSL_shutdown(m_ssl.get());
        ERR_clear_error();
    }

    // Records are taken from what OpenSSL read ahead (one recv() brings many), and no more recv()
    // is made once that is used up: like a plain recv(), what has arrived, and fewer bytes than
    // asked for when that is all.
    Moved read(char *buffer, size_t length) override
    {
        size_t total = 0;
        while (total < length) {
            ERR_clear_error();
            size_t got = 0;
            const int result = SSL_read_ex(m_ssl.get(), buffer + total, length - total, &got);
            if (result == 1) {
                total += got;
                if (!SSL_has_pending(m_ssl.get()))
                    break;
                continue;
            }
            const Moved failed = failure(result);
            if (total > 0)
                return {Result::Done, total};   // the failure comes again on the next read
            return failed;
        }
        return {Result::Done, total};
    }

    Moved write(const char *data, size_t length) override
    {
        ERR_clear_error();
        size_t sent = 0;
        const int result = SSL_write_ex(m_ssl.get(), data, length, &sent);
        if (result == 1)
            return {Result::Done, sent};
        const Moved failed = failure(result);
        if (failed.result == Result::Closed)
            explainClose();
        return failed;
    }

    // Decrypted bytes, or records read ahead and not yet decrypted: the socket may be empty.
    bool hasBuffered() const override { return SSL_has_pending(m_ssl.get()) == 1; }
    bool isTls() const override { return true; }

private:
    // A server that refuses a client certificate (TLS 1.3: after the handshake) sends an alert
    // and closes; the next write then meets the closed socket. The alert is still in the
    // socket's receive queue: read it for the reason.
    void explainClose()
    {
        const QString closed = m_reason;
        char scratch[256];
        size_t got = 0;
        ERR_clear_error();
        const int result = SSL_read_ex(m_ssl.get(), scratch, sizeof scratch, &got);
        if (result != 1 && SSL_get_error(m_ssl.get(), result) == SSL_ERROR_SSL) {
            unsigned long code = 0;
            const QString text = lastErrorText(&code);
            m_reason = withHint(QStringLiteral("%1: TLS: %2").arg(closed, text), hintFor(code, m_names));
        } else {
            m_reason = closed;
        }
    }

    Moved failure(int result)
    {
        const int savedErrno = errno;
        const int error = SSL_get_error(m_ssl.get(), result);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
            m_waitEvents = error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
            return {Result::WouldBlock, 0};
        }
        if (error == SSL_ERROR_ZERO_RETURN) {
            m_reason = QStringLiteral("Server closed the connection (TLS close_notify)");
            return {Result::Closed, 0};
        }
        unsigned long code = 0;
        const QString text = lastErrorText(&code);
        if (error == SSL_ERROR_SYSCALL && code == 0) {
            m_reason = savedErrno == 0 || savedErrno == ECONNRESET || savedErrno == EPIPE
                ? QStringLiteral("Server closed the connection")
                : QString::fromLocal8Bit(std::strerror(savedErrno));
            return {Result::Closed, 0};
        }
        m_reason = withHint(QStringLiteral("TLS: %1").arg(text), hintFor(code, m_names));
        return {Result::Failed, 0};
    }

    ContextPointer m_context;
    SslPointer m_ssl;
    TlsChoiceNames m_names;   // for the hints of later failures
};

// SSL_connect until it ends, waiting on the socket for what it asks, up to the deadline.
Status handshake(SSL *ssl, int fd, const TlsSettings &settings, const QString &name, Clock::time_point deadline)
{
    const auto startedAt = Clock::now();
    for (;;) {
        ERR_clear_error();
        const int result = SSL_connect(ssl);
        if (result == 1)
            return Status::success();
        const int error = SSL_get_error(ssl, result);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
            pollfd entry{fd, short(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0 || (::poll(&entry, 1, int(left)) == 0)) {
                const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - startedAt).count();
                return Error{QStringLiteral("the TLS handshake did not finish within %1 ms (a plain port waits for a "
                                            "command instead: %2 if it is one)")
                                 .arg(waited)
                                 .arg(settings.names.tlsOff)};
            }
            continue;
        }
        const long verified = SSL_get_verify_result(ssl);
        if (!settings.insecure && verified != X509_V_OK)
            return Error{verifyFailure(verified, settings, name)};
        unsigned long code = 0;
        const QString text = lastErrorText(&code);
        if (code == 0)
            return Error{QStringLiteral("the server closed the connection during the TLS handshake")};
        return Error{withHint(QStringLiteral("the TLS handshake failed: %1").arg(text), hintFor(code, settings.names))};
    }
}

} // namespace

Outcome<std::unique_ptr<StreamIo>> startTls(int fd, const TlsSettings &settings, const QString &host, Clock::time_point deadline)
{
    Outcome<ContextPointer> context = makeContext(settings);
    if (!context)
        return Error{context.error()};
    SslPointer ssl(SSL_new(context->get()));
    BIO *bio = BIO_new(socketMethod());
    if (!ssl || !bio) {
        BIO_free(bio);
        return Error{QStringLiteral("cannot set up TLS: %1").arg(lastErrorText())};
    }
    BIO_set_data(bio, reinterpret_cast<void *>(intptr_t(fd)));
    SSL_set_bio(ssl.get(), bio, bio);
    SSL_set_mode(ssl.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // One recv() of up to 256 KiB brings many records, where reading each record's header and
    // body apart took two (docs/PERFORMANCE.md, "TLS").
    SSL_set_read_ahead(ssl.get(), 1);
    SSL_set_default_read_buffer_len(ssl.get(), kReadAhead);
    if (Status named = nameTheServer(ssl.get(), settings, host); !named)
        return Error{named.error()};
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return Error{QStringLiteral("cannot make the socket non-blocking: %1").arg(QString::fromLocal8Bit(std::strerror(errno)))};
    const QString name = settings.serverName.isEmpty() ? host : settings.serverName;
    if (Status shaken = handshake(ssl.get(), fd, settings, name, deadline); !shaken)
        return Error{shaken.error()};
    std::unique_ptr<StreamIo> io = std::make_unique<TlsIo>(fd, std::move(context.value()), std::move(ssl), settings.names);
    return io;
}

Status checkTlsFiles(const TlsSettings &settings)
{
    if (!settings.enabled)
        return Status::success();
    const Outcome<ContextPointer> context = makeContext(settings);
    if (!context)
        return Error{context.error()};
    return Status::success();
}
