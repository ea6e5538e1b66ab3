// The TLS files of an endpoint, checked before a run (checkTlsFiles, as --tls does): a CA
// file far larger than any CA bundle is refused by its size, naming the file and the limit,
// before a byte is read (a 220 MB one took 820 MB and 100 s, deaf to Ctrl-C); a client key
// encrypted with a passphrase is told from a file that holds no key, which no passphrase would
// fix, and from a key of another certificate. No server: the files are read and matched only.

#include "encryptedkey.h"
#include "tlsauthority.h"
#include "tlssettings.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>


namespace {

bool copyFileTo(const QString &from, const QString &to)
{
    QFile::remove(to);
    return QFile::copy(from, to);
}

} // namespace

class TestTlsFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_folder.isValid());
        Outcome<std::shared_ptr<const TlsAuthority>> authority = TlsAuthority::create(QStringLiteral("tst_tlsfiles"));
        QVERIFY2(authority, qPrintable(authority.error()));
        Outcome<TlsServerFiles> mine = authority.value()->issueClientFiles(m_folder.path(), QStringLiteral("mine-"));
        QVERIFY2(mine, qPrintable(mine.error()));
        m_files = mine.value();
        Outcome<TlsServerFiles> other = authority.value()->issueClientFiles(m_folder.path(), QStringLiteral("other-"));
        QVERIFY2(other, qPrintable(other.error()));
        m_otherKey = other->keyFile;
    }

    void clientFilesThatGoTogetherPass()
    {
        const Status checked = checkTlsFiles(settings(m_files.keyFile));
        QVERIFY2(checked, qPrintable(checked.error()));
    }

    void hugeCaFileIsRefusedByItsSize()
    {
        const QString huge = m_folder.filePath(QStringLiteral("huge-ca.pem"));
        QFile file(huge);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(220) << 20));   // sparse: nothing is written
        file.close();
        TlsSettings tls = settings(m_files.keyFile);
        tls.caCertFile = huge;
        const Status checked = checkTlsFiles(tls);
        QVERIFY(!checked);
        QCOMPARE(checked.error(), QStringLiteral("cannot read the CA certificates: %1: 230686720 bytes, more than the 16777216 (16 MiB) "
                                                 "a CA certificate file may have")
                                      .arg(huge));
    }

    void caFileWithoutCertificatesIsNamed()
    {
        const QString empty = m_folder.filePath(QStringLiteral("empty-ca.pem"));
        QFile file(empty);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a certificate\n");
        file.close();
        TlsSettings tls = settings(m_files.keyFile);
        tls.caCertFile = empty;
        const Status checked = checkTlsFiles(tls);
        QVERIFY(!checked);
        QVERIFY2(checked.error().startsWith(QStringLiteral("cannot read the CA certificates in %1: ").arg(empty)), qPrintable(checked.error()));
    }

    void encryptedKeyIsSaidToNeedAPassphrase()
    {
        const QString encrypted = m_folder.filePath(QStringLiteral("encrypted.key"));
        QVERIFY(writeEncryptedKey(m_files.keyFile, encrypted, "a passphrase"));
        const Status checked = checkTlsFiles(settings(encrypted));
        QVERIFY(!checked);
        QCOMPARE(checked.error(), QStringLiteral("the client key given with --key is encrypted with a passphrase, and a key encrypted "
                                                 "with a passphrase is not supported: give it decrypted (openssl pkey -in KEY -out DECRYPTED)"));
    }

    // A certificate given as the key, and a cut PEM: no passphrase would help, so none is named.
    void fileThatIsNoKeyIsNotBlamedOnAPassphrase_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("a certificate") << QByteArray();
        QTest::newRow("a cut key") << QByteArray("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n");
    }
    void fileThatIsNoKeyIsNotBlamedOnAPassphrase()
    {
        QFETCH(QByteArray, content);
        const QString notAKey = m_folder.filePath(QStringLiteral("not-a.key"));
        if (content.isEmpty()) {
            QVERIFY(copyFileTo(m_files.certFile, notAKey));
        } else {
            QFile file(notAKey);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(content);
        }
        const Status checked = checkTlsFiles(settings(notAKey));
        QVERIFY(!checked);
        QVERIFY2(checked.error().startsWith(QLatin1String("the file given with --key is not a PEM private key (")), qPrintable(checked.error()));
        QVERIFY2(!checked.error().contains(QLatin1String("passphrase")), qPrintable(checked.error()));
        QVERIFY2(!checked.error().contains(notAKey), qPrintable(checked.error()));
    }

    void keyOfAnotherCertificateIsSaidToBeSo()
    {
        const Status checked = checkTlsFiles(settings(m_otherKey));
        QVERIFY(!checked);
        QCOMPARE(checked.error(), QStringLiteral("the key given with --key does not belong to the certificate %1").arg(m_files.certFile));
    }

private:
    TlsSettings settings(const QString &keyFile) const
    {
        TlsSettings tls;
        tls.enabled = true;
        tls.caCertFile = m_files.caCertFile;
        tls.certFile = m_files.certFile;
        tls.keyFile = keyFile;
        return tls;
    }

    QTemporaryDir m_folder;
    TlsServerFiles m_files;
    QString m_otherKey;
};

QTEST_GUILESS_MAIN(TestTlsFiles)
#include "tst_tlsfiles.moc"
