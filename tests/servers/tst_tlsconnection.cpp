// Connections over TLS against real servers launched TLS-only (port 0, tls-port, a throwaway
// certificate): every version starts that way and answers; commands, pipelines and the replay's
// exchange() go through TLS with replies of every size; the certificate files are private; and
// the ways TLS goes wrong (a CA that did not sign the server, a plain client on a TLS port, a
// TLS client on a plain port, a client certificate the server refuses or lacks) each end soon
// with a message naming the endpoint and the reason.

#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "encryptedkey.h"
#include "tlsauthority.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace ServerTestHelpers;

namespace {

ServerSpec tlsOnly(ServerSpec spec)
{
    spec.tls.enabled = true;
    return spec;
}

std::string respOf(const std::vector<std::string> &args)
{
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string &arg : args)
        out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    return out;
}

QString replyText(const Outcome<Reply> &reply)
{
    return reply ? QString::fromStdString(reply->text) : reply.error();
}


} // namespace

class TestTlsConnection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyVersionServesTlsOnly_data();
    void everyVersionServesTlsOnly();
    void commandsPipelinesAndExchange();
    void certificateFilesArePrivate();
    void serverNameIsChecked();
    void failuresNameEndpointAndReason_data();
    void failuresNameEndpointAndReason();

private:
    std::unique_ptr<ServerProcess> m_tls;        // TLS-only, no client certificate needed
    std::unique_ptr<ServerProcess> m_plain;      // the same version, plain TCP
    std::unique_ptr<ServerProcess> m_mutual;     // TLS-only, a client certificate required
    std::shared_ptr<const TlsAuthority> m_mutualAuthority;
    QTemporaryDir m_files;
};

void TestTlsConnection::initTestCase()
{
    std::signal(SIGPIPE, SIG_IGN);
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    m_tls = std::make_unique<ServerProcess>(tlsOnly(spec));
    Status started = m_tls->start();
    QVERIFY2(started, qPrintable(started.error()));
    m_plain = std::make_unique<ServerProcess>(spec);
    started = m_plain->start();
    QVERIFY2(started, qPrintable(started.error()));
    Outcome<std::shared_ptr<const TlsAuthority>> authority = TlsAuthority::create(QStringLiteral("mutual"));
    QVERIFY2(authority, qPrintable(authority.error()));
    m_mutualAuthority = authority.value();
    m_mutual = std::make_unique<ServerProcess>(tlsOnly(spec));
    m_mutual->setTlsAuthority(m_mutualAuthority);
    m_mutual->setExtraArguments({QStringLiteral("--tls-auth-clients"), QStringLiteral("yes")});
    started = m_mutual->start();   // Versus's own connections show a certificate of its CA
    QVERIFY2(started, qPrintable(started.error()));
}

void TestTlsConnection::cleanupTestCase()
{
    m_tls.reset();
    m_plain.reset();
    m_mutual.reset();
}

void TestTlsConnection::everyVersionServesTlsOnly_data()
{
    QTest::addColumn<QString>("label");
    for (const ServerSpec &spec : fetchedServers())
        QTest::newRow(qPrintable(spec.label)) << spec.label;
    for (const ServerSpec &spec : builtServers())
        QTest::newRow(qPrintable(spec.label)) << spec.label;
    if (fetchedServers().empty())
        QSKIP("no server in the cache (run scripts/fetch-servers)");
}

void TestTlsConnection::everyVersionServesTlsOnly()
{
    QFETCH(QString, label);
    std::optional<ServerSpec> spec = findFetchedServer(label);
    if (!spec || spec->label != label)
        spec = findBuiltServer(label);
    QVERIFY(spec);
    ServerProcess server(tlsOnly(*spec));
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started.error()));
    QVERIFY(server.tls().enabled);
    RedisConnection connection;
    const Status connected = server.connect(connection, ServerTestHelpers::kHealthyReplyMs);
    QVERIFY2(connected, qPrintable(connected.error()));
    QVERIFY(connection.isTls());
    const Outcome<Reply> port = connection.command({"CONFIG", "GET", "port"});
    QVERIFY2(port && port->elements.size() == 2, qPrintable(replyText(port)));
    QCOMPARE(port->elements[1].text, std::string("0"));   // no plain port at all
    const Outcome<Reply> tlsPort = connection.command({"CONFIG", "GET", "tls-port"});
    QVERIFY2(tlsPort && tlsPort->elements.size() == 2, qPrintable(replyText(tlsPort)));
    QCOMPARE(QString::fromStdString(tlsPort->elements[1].text), QString::number(server.port()));
    // The plain protocol on that port is refused.
    RedisConnection plain;
    QVERIFY(plain.connectTcp(server.host(), server.port(), 3000, QStringLiteral("plain")));
    QVERIFY(!plain.command({"PING"}));
    server.stop();
    QVERIFY(!server.isRunning());
}

void TestTlsConnection::commandsPipelinesAndExchange()
{
    RedisConnection connection;
    Status connected = m_tls->connect(connection, ServerTestHelpers::kHealthyReplyMs);
    QVERIFY2(connected, qPrintable(connected.error()));
    QVERIFY(connection.command({"FLUSHALL", "SYNC"}));
    // A value larger than a TLS record (16 KiB) and than one read.
    const std::string big(300 * 1024, 'x');
    Outcome<Reply> set = connection.command({"SET", "big", big});
    QVERIFY2(set && set->text == "OK", qPrintable(replyText(set)));
    Outcome<Reply> get = connection.command({"GET", "big"});
    QVERIFY2(get && get->text == big, qPrintable(get ? QStringLiteral("%1 bytes").arg(get->text.size()) : get.error()));
    // The replay's path: a request of several MiB, written while the replies come back, one error by its place.
    std::string request;
    const size_t commands = 20000;
    for (size_t i = 0; i < commands; ++i)
        request += i == 777 ? respOf({"NOSUCHCOMMAND"}) : respOf({"SET", "k:" + std::to_string(i), std::string(200, 'v')});
    const Status exchanged = connection.exchange(request, commands);
    QVERIFY2(exchanged, qPrintable(exchanged.error()));
    QCOMPARE(connection.lastReplies().errorCount(), size_t(1));
    QCOMPARE(connection.lastReplies().error(0).index, size_t(777));
    Outcome<Reply> size = connection.command({"DBSIZE"});
    QVERIFY(size);
    QCOMPARE(size->integer, (long long)commands);   // 19,999 keys and "big"
    // Pipelining through hiredis's buffer, every reply read as a value.
    for (int i = 0; i < 500; ++i)
        QVERIFY(connection.appendCommand({"GET", "big"}));
    QVERIFY(connection.flush());
    for (int i = 0; i < 500; ++i) {
        const Outcome<Reply> reply = connection.readReply();
        QVERIFY2(reply && !reply->isError(), qPrintable(reply ? QString::fromStdString(reply->text) : reply.error()));
    }
    QVERIFY(connection.command({"FLUSHALL", "SYNC"}));
}

void TestTlsConnection::certificateFilesArePrivate()
{
    const QDir dir(m_tls->tempDirPath());
    for (const QString &name : {QStringLiteral("ca.crt"), QStringLiteral("server.crt"), QStringLiteral("server.key")}) {
        QVERIFY2(dir.exists(name), qPrintable(name));
        QCOMPARE(TestFiles::statOf(dir.filePath(name)).st_mode & 0777, mode_t(0600));
    }
    const QByteArray key = TestFiles::readFile(dir.filePath(QStringLiteral("server.key")));
    QVERIFY(key.contains("PRIVATE KEY"));
    const QByteArray keyBody = key.split('\n').value(1);   // a line of the key itself
    QVERIFY(keyBody.size() > 20);
    const QByteArray cmdline = TestFiles::readFile(QStringLiteral("/proc/%1/cmdline").arg(m_tls->pid()));
    QVERIFY(cmdline.contains("tls-port"));
    QVERIFY(!cmdline.contains("PRIVATE KEY"));
    QVERIFY(!cmdline.contains(keyBody));
    QVERIFY(!cmdline.contains(m_tls->controlCredentials().password.toLatin1()));
}

// The certificate is made out to 127.0.0.1 and localhost: --sni localhost is accepted on
// 127.0.0.1 (the name is sent and checked), another name is not, and --insecure takes any.
void TestTlsConnection::serverNameIsChecked()
{
    TlsSettings tls = m_tls->tls();
    tls.serverName = QStringLiteral("localhost");
    RedisConnection connection;
    Status connected = connection.connectTcp(m_tls->host(), m_tls->port(), 3000, QStringLiteral("sni"), tls);
    QVERIFY2(connected, qPrintable(connected.error()));
    tls.serverName = QStringLiteral("cache.example.com");
    connected = connection.connectTcp(m_tls->host(), m_tls->port(), 3000, QStringLiteral("sni"), tls);
    QVERIFY(!connected);
    QVERIFY2(connected.error().contains(QLatin1String("it is not made out to cache.example.com; --sni names the host it is for")),
             qPrintable(connected.error()));
    tls.insecure = true;
    tls.caCertFile.clear();
    connected = connection.connectTcp(m_tls->host(), m_tls->port(), 3000, QStringLiteral("sni"), tls);
    QVERIFY2(connected, qPrintable(connected.error()));
    const Status authed = connection.auth(m_tls->controlCredentials());
    QVERIFY2(authed, qPrintable(authed.error()));
    QVERIFY(connection.command({"PING"}));
}

void TestTlsConnection::failuresNameEndpointAndReason_data()
{
    QTest::addColumn<int>("target");    // 0: TLS server, 1: plain server, 2: client certificate required
    QTest::addColumn<QString>("client"); // what the client brings
    QTest::addColumn<QString>("reason");
    QTest::newRow("wrong CA") << 0 << "other-ca" << "the server's certificate was not accepted";
    QTest::newRow("plain client to a TLS port") << 0 << "plain" << "give --tls";
    QTest::newRow("TLS client to a plain port") << 1 << "launched-ca" << "TLS";
    QTest::newRow("bad client certificate") << 2 << "other-client" << "refused the client certificate";
    QTest::newRow("no client certificate") << 2 << "launched-ca" << "client certificate";
    QTest::newRow("client key with a passphrase") << 2 << "encrypted-key" << "a key encrypted with a passphrase is not supported";
    // Decrypted with an empty passphrase, this key's padding looks right (tests/fixtures/tls).
    QTest::newRow("client key an empty passphrase decrypts") << 2 << "decrypts-without-passphrase"
                                                             << "a key encrypted with a passphrase is not supported";
}

void TestTlsConnection::failuresNameEndpointAndReason()
{
    QFETCH(int, target);
    QFETCH(QString, client);
    QFETCH(QString, reason);
    ServerProcess &server = target == 0 ? *m_tls : target == 1 ? *m_plain : *m_mutual;
    QTemporaryDir folder;
    // The server's CA, and no client certificate.
    TlsSettings tls = target == 2 ? m_mutual->tls() : m_tls->tls();
    tls.certFile.clear();
    tls.keyFile.clear();
    if (client == QLatin1String("plain"))
        tls = TlsSettings();
    if (client.startsWith(QLatin1String("other"))) {
        Outcome<std::shared_ptr<const TlsAuthority>> stranger = TlsAuthority::create(QStringLiteral("stranger"));
        QVERIFY(stranger);
        Outcome<TlsServerFiles> files = stranger.value()->issueClientFiles(folder.path(), QStringLiteral("stranger-"));
        QVERIFY2(files, qPrintable(files.error()));
        if (client == QLatin1String("other-ca"))
            tls.caCertFile = files->caCertFile;
        else {
            tls.certFile = files->certFile;
            tls.keyFile = files->keyFile;
        }
    }
    if (client == QLatin1String("encrypted-key")) {
        tls = m_mutual->tls();
        tls.keyFile = folder.filePath(QStringLiteral("client-encrypted.key"));
        QVERIFY(writeEncryptedKey(m_mutual->tls().keyFile, tls.keyFile, "a passphrase"));
    }
    if (client == QLatin1String("decrypts-without-passphrase")) {
        tls = m_mutual->tls();
        tls.keyFile = QStringLiteral(VERSUS_FIXTURES "/tls/key-an-empty-passphrase-decrypts.pem");
    }
    const QString name = QStringLiteral("endpoint %1:%2").arg(server.host()).arg(server.port());
    QElapsedTimer clock;
    clock.start();
    RedisConnection connection;
    Status failed = connection.connectTcp(server.host(), server.port(), 5000, name, tls);
    if (failed) {
        const Outcome<Reply> ping = connection.command({"PING"});
        failed = ping ? Status(Error{QStringLiteral("answered %1").arg(replyText(ping))}) : Status(Error{ping.error()});
        QVERIFY2(!ping, qPrintable(replyText(ping)));
    }
    const qint64 elapsed = clock.elapsed();
    qInfo("%s: failed after %lld ms: %s", QTest::currentDataTag(), elapsed, qPrintable(failed.error()));
    QVERIFY(!failed);
    QVERIFY(elapsed < 10000);
    QVERIFY2(failed.error().startsWith(name), qPrintable(failed.error()));
    QVERIFY2(failed.error().contains(reason), qPrintable(failed.error()));
    QVERIFY2(tls.keyFile.isEmpty() || !failed.error().contains(tls.keyFile), qPrintable(failed.error()));
    QVERIFY(!connection.isConnected());
}

QTEST_GUILESS_MAIN(TestTlsConnection)
#include "tst_tlsconnection.moc"
