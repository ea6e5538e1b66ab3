// A TLS endpoint added through the window as a user adds one: a server whose certificate is
// made out to another name than the address it is reached at (openssl's command line, as a
// managed service's is), Add endpoint, Test connection, OK, and a restart. The dialog says what
// to change in its own words (never a command-line option), tests on a pool thread, and the
// TLS choices come back after a restart; the password does not.
#include "endpointdialog.h"
#include "flushconsent.h"
#include "foreignserver.h"
#include "mainwindow.h"
#include "serverspanel.h"
#include "servertesthelpers.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

namespace {

const char *const kTlsPassword = "tls-window-secret-7";
const QString kCertifiedName = QStringLiteral("cache.versus.test");

// A CA and a server certificate of it made out to kCertifiedName alone, by openssl's command
// line; empty when openssl failed (its output in `error`).
TlsServerFiles certificatesForAnotherName(const QString &folder, QString &error)
{
    const QString ext = folder + QStringLiteral("/server.ext");
    QFile extensions(ext);
    if (!extensions.open(QIODevice::WriteOnly))
        return {};
    extensions.write("subjectAltName=DNS:" + kCertifiedName.toUtf8() + "\n");
    extensions.close();
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    const std::vector<QStringList> steps{
        QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec
            + QStringList{QStringLiteral("-keyout"), QStringLiteral("ca.key"), QStringLiteral("-out"), QStringLiteral("ca.crt"),
                          QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=Versus test CA")},
        QStringList{QStringLiteral("req")} + ec
            + QStringList{QStringLiteral("-keyout"), QStringLiteral("server.key"), QStringLiteral("-out"), QStringLiteral("server.csr"),
                          QStringLiteral("-subj"), QStringLiteral("/CN=") + kCertifiedName},
        {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), QStringLiteral("server.csr"), QStringLiteral("-CA"),
         QStringLiteral("ca.crt"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"), QStringLiteral("-CAcreateserial"),
         QStringLiteral("-out"), QStringLiteral("server.crt"), QStringLiteral("-days"), QStringLiteral("2"),
         QStringLiteral("-extfile"), ext},
    };
    for (const QStringList &arguments : steps) {
        QProcess openssl;
        openssl.setWorkingDirectory(folder);
        openssl.setProcessChannelMode(QProcess::MergedChannels);
        openssl.start(QStringLiteral("openssl"), arguments);
        if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0) {
            error = QStringLiteral("openssl %1: %2").arg(arguments.join(QLatin1Char(' ')), QString::fromLocal8Bit(openssl.readAll()));
            return {};
        }
    }
    return TlsServerFiles{folder + QStringLiteral("/ca.crt"), folder + QStringLiteral("/server.crt"),
                          folder + QStringLiteral("/server.key")};
}

// What the user saw in the dialog, step by step.
struct DialogSeen {
    QString withoutKey;         // Test connection with a client certificate and no key
    bool testingAfterClick = false;
    QString withoutName;        // TLS and the CA, reached by its address
    QString withName;           // and the name its certificate is made out to
    bool accepted = false;
};

// Fills the Add endpoint dialog once it is open, presses Test connection as the user would
// (three times, changing the fields between), then OK.
void driveEndpointDialog(const QString &hostPort, const TlsServerFiles &files, DialogSeen &seen)
{
    auto *poll = new QTimer;
    auto step = std::make_shared<int>(0);
    QObject::connect(poll, &QTimer::timeout, [poll, step, hostPort, files, &seen] {
        auto *dialog = qobject_cast<EndpointDialog *>(QApplication::activeModalWidget());
        if (!dialog || dialog->isTesting())
            return;
        auto field = [dialog](const char *name) { return dialog->findChild<QLineEdit *>(QLatin1String(name)); };
        auto *test = dialog->findChild<QPushButton *>(QStringLiteral("endpointTest"));
        if (!test || !field("endpointServerName") || !field("endpointCert")) {
            dialog->reject();   // not this dialog: the test fails on what it did not see
            poll->deleteLater();
            return;
        }
        if (*step == 0) {
            field("endpointHostPort")->setText(hostPort);
            field("endpointPassword")->setText(QLatin1String(kTlsPassword));
            dialog->findChild<QCheckBox *>(QStringLiteral("endpointTls"))->setChecked(true);
            field("endpointCaCert")->setText(files.caCertFile);
            field("endpointCert")->setText(files.certFile);
            QTest::mouseClick(test, Qt::LeftButton);
            seen.withoutKey = dialog->testResult();
            field("endpointCert")->clear();
            QTest::mouseClick(test, Qt::LeftButton);
            seen.testingAfterClick = dialog->isTesting();   // the GUI thread did not wait
        } else if (*step == 1) {
            seen.withoutName = dialog->testResult();
            field("endpointServerName")->setText(kCertifiedName);
            QTest::mouseClick(test, Qt::LeftButton);
        } else {
            seen.withName = dialog->testResult();
            QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
            seen.accepted = true;
            poll->deleteLater();
        }
        ++*step;
    });
    poll->start(20);
}

QByteArray settingsText()
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class WindowTlsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowtls"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void endpointCertifiedForAnotherNameIsTestedAndRemembered()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        QTemporaryDir folder;
        QString error;
        const TlsServerFiles files = certificatesForAnotherName(folder.path(), error);
        QVERIFY2(!files.certFile.isEmpty(), qPrintable(error));
        TlsSettings own;
        own.enabled = true;
        own.caCertFile = files.caCertFile;
        own.serverName = kCertifiedName;
        ForeignServer server(spec, {QStringLiteral("--requirepass"), QLatin1String(kTlsPassword)});
        server.useTlsFiles(files, own);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "k", "v"}, QLatin1String(kTlsPassword)), QStringLiteral("OK"));
        const QString hostPort = server.hostPort();

        {
            MainWindow window;
            window.show();
            QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
            DialogSeen seen;
            driveEndpointDialog(hostPort, files, seen);
            QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("addEndpoint")), Qt::LeftButton);
            QVERIFY(seen.accepted);
            QCOMPARE(seen.withoutKey, QStringLiteral("Could not connect: a client certificate needs both “Client certificate” and "
                                                     "“Client key”"));
            QVERIFY(seen.testingAfterClick);
            QVERIFY2(seen.withoutName.startsWith(QStringLiteral("Could not connect: ")), qPrintable(seen.withoutName));
            QVERIFY2(seen.withoutName.contains(QStringLiteral("it is not made out to 127.0.0.1; “Server name (SNI)” names the host "
                                                              "it is for")),
                     qPrintable(seen.withoutName));
            QVERIFY2(!seen.withoutName.contains(QLatin1String("--")), qPrintable(seen.withoutName));
            QCOMPARE(seen.withName, QStringLiteral("Connected: Valkey %1 over TLS (server certificate checked against ca.crt, "
                                                   "SNI %2), 1 key.")
                                        .arg(spec.identity.version, kCertifiedName));
            QCOMPARE(window.serversPanel()->inlineMessage(),
                     QStringLiteral("Added endpoint %1. It is flushed only if you confirm before a run.").arg(hostPort));
        }
        // Remembered: the TLS choices and the files' paths, never the password.
        const QByteArray saved = settingsText();
        QVERIFY2(saved.contains(files.caCertFile.toUtf8()) && saved.contains(kCertifiedName.toUtf8()), saved);
        QVERIFY2(!saved.contains(kTlsPassword), saved);

        // A restart: the endpoint comes back over TLS, with its CA and its name.
        MainWindow restarted;
        restarted.show();
        QTRY_VERIFY_WITH_TIMEOUT(!restarted.serversPanel()->isDiscovering(), 60000);
        std::vector<ServerSpec> endpoints;
        for (const ServerSpec &selected : restarted.serversPanel()->selectedServers()) {
            if (selected.isEndpoint)
                endpoints.push_back(selected);
        }
        QCOMPARE(int(endpoints.size()), 1);
        QCOMPARE(endpoints[0].label, hostPort);
        QVERIFY(endpoints[0].tls.enabled);
        QCOMPARE(endpoints[0].tls.caCertFile, files.caCertFile);
        QCOMPARE(endpoints[0].tls.serverName, kCertifiedName);
        QVERIFY(!endpoints[0].tls.insecure);
        QCOMPARE(endpoints[0].tls.names.serverName, QStringLiteral("“Server name (SNI)”"));
        QCOMPARE(endpoints[0].password, QString());
        auto *list = restarted.findChild<QTreeWidget *>(QStringLiteral("serverList"));
        const QList<QTreeWidgetItem *> rows = list->findItems(QStringLiteral("Endpoint"), Qt::MatchExactly, 0);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front()->text(1), hostPort + QStringLiteral(" over TLS"));
        // With the password given again for the session, the consent's probe reaches it over TLS.
        endpoints[0].password = QLatin1String(kTlsPassword);
        const std::vector<EndpointSize> sizes = queryEndpointSizes(endpoints);
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].error, QString());
        QCOMPARE(sizes[0].keys, 1LL);
    }
};

QTEST_MAIN(WindowTlsTest)
#include "tst_windowtls.moc"
