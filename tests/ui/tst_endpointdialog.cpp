// The window's side of endpoints: the password typed in Add endpoint reaches the run and is
// never written to the settings file, also when the endpoint is added again after a restart;
// the consent dialog names every database's keys and everything else a run cannot undo, and stays
// a few lines for a cluster of many primaries.
#include "endpointdialog.h"
#include "fakeclusternode.h"
#include "flushconsent.h"
#include "foreigncluster.h"
#include "foreignserver.h"
#include "runcoordinator.h"
#include "serverspanel.h"
#include "servertesthelpers.h"
#include "workloadfactory.h"

#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

namespace {

const char *const kPassword = "dialog-secret-41";

// A key whose slot is `first` or after.
std::string keyOfSlotAtLeast(int first)
{
    for (int n = 0;; ++n) {
        const std::string key = "k" + std::to_string(n);
        if (keyHashSlot(key) >= first)
            return key;
    }
}

// Fills the Add endpoint dialog as soon as it is open, and presses OK; with `caCertFile`, TLS
// is ticked and the CA file given; with `user`, that ACL user is typed.
void answerEndpointDialog(const QString &hostPort, const QString &password, const QString &caCertFile = {},
                          const QString &user = {})
{
    auto *poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, [poll, hostPort, password, caCertFile, user] {
        auto *dialog = qobject_cast<EndpointDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        dialog->findChild<QLineEdit *>(QStringLiteral("endpointHostPort"))->setText(hostPort);
        if (!user.isEmpty()) {
            auto *userField = dialog->findChild<QLineEdit *>(QStringLiteral("endpointUser"));
            QVERIFY(userField);
            userField->setText(user);
        }
        auto *field = dialog->findChild<QLineEdit *>(QStringLiteral("endpointPassword"));
        QCOMPARE(field->echoMode(), QLineEdit::Password);
        field->setText(password);
        if (!caCertFile.isEmpty()) {
            dialog->findChild<QCheckBox *>(QStringLiteral("endpointTls"))->setChecked(true);
            dialog->findChild<QLineEdit *>(QStringLiteral("endpointCaCert"))->setText(caCertFile);
        }
        dialog->accept();
        poll->deleteLater();
    });
    poll->start(20);
}

// The password each endpoint of the panel would run with, by label.
std::map<QString, QString> endpointPasswords(const ServersPanel &panel)
{
    std::map<QString, QString> passwords;
    for (const ServerSpec &spec : panel.selectedServers()) {
        if (spec.isEndpoint)
            passwords[spec.label] = spec.password;
    }
    return passwords;
}

// The endpoints the panel would run, as specs.
std::vector<ServerSpec> selectedEndpoints(const ServersPanel &panel)
{
    std::vector<ServerSpec> endpoints;
    for (const ServerSpec &selected : panel.selectedServers()) {
        if (selected.isEndpoint)
            endpoints.push_back(selected);
    }
    return endpoints;
}

QByteArray settingsFile()
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<cannot read ") + settings.fileName().toUtf8() + '>';
}

} // namespace

class EndpointDialogTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Settings of their own, so the tests neither read nor change the user's.
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_endpointdialog"));
    }
    void init() { QSettings().clear(); }

    void passwordIsUsedButNeverSaved()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec, {QStringLiteral("--requirepass"), QLatin1String(kPassword)});
        QVERIFY2(server.start(), qPrintable(server.error()));
        const QString hostPort = server.hostPort();
        {
            ServersPanel panel;
            panel.discover();
            QTRY_VERIFY_WITH_TIMEOUT(!panel.isDiscovering(), 60000);
            answerEndpointDialog(hostPort, QLatin1String(kPassword));
            panel.findChild<QPushButton *>(QStringLiteral("addEndpoint"))->click();
            QCOMPARE(endpointPasswords(panel), (std::map<QString, QString>{{hostPort, QLatin1String(kPassword)}}));
            const QByteArray saved = settingsFile();
            QVERIFY2(saved.contains(hostPort.toUtf8()), saved);
            QVERIFY2(!saved.contains(kPassword), saved);
        }
        // A restart: the endpoint is remembered, its password is not.
        ServersPanel restarted;
        restarted.discover();
        QTRY_VERIFY_WITH_TIMEOUT(!restarted.isDiscovering(), 60000);
        QCOMPARE(endpointPasswords(restarted), (std::map<QString, QString>{{hostPort, QString()}}));
        // Added again with its password: the same entry gets it, for this session only.
        QCOMPARE(restarted.addEndpoint(hostPort, QLatin1String(kPassword)), QString());
        QCOMPARE(endpointPasswords(restarted), (std::map<QString, QString>{{hostPort, QLatin1String(kPassword)}}));
        QCOMPARE(restarted.inlineMessage(), QStringLiteral("Endpoint %1: password set for this session.").arg(hostPort));
        QVERIFY2(!settingsFile().contains(kPassword), settingsFile());

        // The password reaches the endpoint: the consent's probe reads its keys with it.
        QCOMPARE(server.command({"SET", "k", "v"}, QLatin1String(kPassword)), QStringLiteral("OK"));
        const std::vector<ServerSpec> endpoints = selectedEndpoints(restarted);
        const std::vector<EndpointSize> sizes = queryEndpointSizes(endpoints);
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].error, QString());
        QCOMPARE(sizes[0].keys, 1LL);
    }

    // A server whose default user is off, added as its ACL user: the consent's probe logs in as
    // that user, whose password is never written to the settings.
    void namedUserIsUsedButNeverSaved()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec, {QStringLiteral("--user"), QStringLiteral("default"), QStringLiteral("off"),
                                    QStringLiteral("--user"), QStringLiteral("carol"), QStringLiteral("on"),
                                    QStringLiteral(">") + QLatin1String(kPassword), QStringLiteral("~*"), QStringLiteral("&*"),
                                    QStringLiteral("+@all")});
        QVERIFY2(server.start(), qPrintable(server.error()));
        const QString hostPort = server.hostPort();
        ServersPanel panel;
        panel.discover();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isDiscovering(), 60000);
        answerEndpointDialog(hostPort, QLatin1String(kPassword), QString(), QStringLiteral("carol"));
        panel.findChild<QPushButton *>(QStringLiteral("addEndpoint"))->click();
        const std::vector<ServerSpec> endpoints = selectedEndpoints(panel);
        QCOMPARE(int(endpoints.size()), 1);
        QCOMPARE(endpoints[0].user, QStringLiteral("carol"));
        QVERIFY2(!settingsFile().contains(kPassword), settingsFile());
        const std::vector<EndpointSize> sizes = queryEndpointSizes(endpoints);
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].error, QString());
        QCOMPARE(sizes[0].keys, 0LL);
        QCOMPARE(panel.addEndpoint(hostPort, QString(), {}, EndpointAccess{QStringLiteral("carol"), false}),
                 QStringLiteral("The user carol needs a password."));
    }

    // A TLS-only endpoint (port 0, tls-port) added with TLS ticked and its CA: the consent's
    // probe reaches it; a CA file that cannot be read is refused in the dialog, naming it.
    void tlsEndpointIsProbedOverTls()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.useOwnTls(), qPrintable(server.error()));
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "k", "v"}), QStringLiteral("OK"));
        ServersPanel panel;
        panel.discover();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isDiscovering(), 60000);
        const QString missing = QStringLiteral("/nonexistent/ca.pem");
        TlsSettings unreadable;
        unreadable.enabled = true;
        unreadable.caCertFile = missing;
        const QString refused = panel.addEndpoint(server.hostPort(), QString(), unreadable);
        QVERIFY2(refused.contains(missing), qPrintable(refused));
        answerEndpointDialog(server.hostPort(), QString(), server.tls().caCertFile);
        panel.findChild<QPushButton *>(QStringLiteral("addEndpoint"))->click();
        const std::vector<ServerSpec> endpoints = selectedEndpoints(panel);
        QCOMPARE(int(endpoints.size()), 1);
        QVERIFY(endpoints[0].tls.enabled);
        QCOMPARE(endpoints[0].tls.caCertFile, server.tls().caCertFile);
        const std::vector<EndpointSize> sizes = queryEndpointSizes(endpoints);
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].error, QString());
        QCOMPARE(sizes[0].keys, 1LL);
    }

    // The consent dialog's text, exactly: every database's keys, and what else cannot be undone.
    void consentNamesWhatIsDeletedAndReset()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "a", "1"}), QStringLiteral("OK"));
        RedisConnection db5;
        QVERIFY(server.connect(db5));
        QVERIFY(db5.command({"SELECT", "5"}));
        QVERIFY(db5.command({"MSET", "b", "1", "c", "2", "d", "3"}));
        ServerSpec endpoint = ServerCatalog::parseEndpoint(server.hostPort()).value();
        endpoint.label = QStringLiteral("mine");

        const std::vector<EndpointSize> sizes = queryEndpointSizes({endpoint});
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].keys, 4LL);
        QCOMPARE(flushConsentText(sizes, false),
                 QStringLiteral("<p>These servers were not launched by Versus. A run on them cannot be undone: every key of every "
                                "database is deleted (FLUSHALL) and its statistics are reset (CONFIG RESETSTAT: INFO stats counters, "
                                "commandstats, errorstats, latency histograms).</p><ul><li><b>%1</b> holds db0: 1 key, db5: 3 keys</li></ul>"
                                "<p>Their replicas, and their RDB or AOF file when they persist, lose the keys too. latency-tracking, "
                                "which Versus turns off for the run, is put back at the end, and so is every function library the "
                                "workload loaded or replaced (one another client changes during the run is kept), also when the run "
                                "fails or is cancelled.</p><p>If you do not allow it, they are left untouched and skipped in this "
                                "run.</p>")
                     .arg(server.hostPort()));
        QVERIFY(flushConsentText(sizes, true).contains(QLatin1String("<li><b>mine</b> holds db0: 1 key, db5: 3 keys</li>")));
        QCOMPARE(server.command({"DBSIZE"}), QStringLiteral("1"));
    }

    // A server that refuses CONFIG (a managed service): its item says the run leaves its
    // statistics and settings alone, naming the refusal.
    void consentSaysWhatARestrictedServerKeeps()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec, {QStringLiteral("--rename-command"), QStringLiteral("CONFIG"), QString()});
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "a", "1"}), QStringLiteral("OK"));
        ServerSpec endpoint = ServerCatalog::parseEndpoint(server.hostPort()).value();
        endpoint.label = QStringLiteral("managed");
        const std::vector<EndpointSize> sizes = queryEndpointSizes({endpoint});
        QCOMPARE(int(sizes.size()), 1);
        const QString text = flushConsentText(sizes, false);
        QVERIFY2(text.contains(QStringLiteral("<li><b>%1</b> holds db0: 1 key<br>Here every key of every database is "
                                              "deleted (FLUSHALL); its statistics and settings are left as they are: it refuses "
                                              "CONFIG (&quot;ERR unknown command 'CONFIG', with args beginning with: 'GET' "
                                              "'latency-tracking' &quot;).</li>")
                                   .arg(server.hostPort())),
                 qPrintable(text));
        QCOMPARE(server.command({"DBSIZE"}), QStringLiteral("1"));
    }

    // A node of a cluster: the dialog lists every primary, its slots and keys; with the hosts
    // hidden (demo mode) the primaries are numbered instead.
    void consentListsEveryPrimaryOfACluster()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster cluster(spec, 3);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        QCOMPARE(cluster.node(2).command({"SET", keyOfSlotAtLeast(cluster.firstSlot(2)), "v"}), QStringLiteral("OK"));
        ServerSpec endpoint = ServerCatalog::parseEndpoint(cluster.node(1).hostPort()).value();
        endpoint.label = QStringLiteral("shop");

        const std::vector<EndpointSize> sizes = queryEndpointSizes({endpoint});
        QCOMPARE(int(sizes.size()), 1);
        QCOMPARE(sizes[0].keys, 1LL);
        QVERIFY(sizes[0].probe && sizes[0].probe->isCluster());
        const QString text = flushConsentText(sizes, false);
        QVERIFY2(text.contains(QStringLiteral("<li><b>%1</b> is a node of a cluster of 3 primaries, and the run uses them all:<ul>"
                                              "<li>primary %2 (slots 0-5460) holds no keys</li>"
                                              "<li>primary %1 (slots 5461-10921) holds no keys</li>"
                                              "<li>primary %3 (slots 10922-16383) holds db0: 1 key</li></ul></li>")
                                   .arg(cluster.node(1).hostPort(), cluster.node(0).hostPort(), cluster.node(2).hostPort())),
                 qPrintable(text));
        const QString hidden = flushConsentText(sizes, true);
        QVERIFY2(hidden.contains(QLatin1String("<li><b>shop</b> is a node of a cluster of 3 primaries")), qPrintable(hidden));
        QVERIFY2(hidden.contains(QLatin1String("<li>primary 3 of 3 (slots 10922-16383) holds db0: 1 key</li>")), qPrintable(hidden));
        QVERIFY2(!hidden.contains(QStringLiteral(":%1").arg(cluster.node(0).port())), qPrintable(hidden));
    }

    // A fake node naming 40 primaries (itself each time), their slots scattered one by one: the
    // dialog names the first 16, each with its first 8 slot ranges, and counts the rest.
    void consentOfAManyPrimaryClusterStaysShort()
    {
        FakeClusterNode node;
        node.setShards(FakeClusterNode::shardsReply(node.scatteredPrimaries(40)));
        const ServerSpec endpoint = ServerCatalog::parseEndpoint(QString::fromStdString(node.hostPort())).value();
        const std::vector<EndpointSize> sizes = queryEndpointSizes({endpoint});
        QCOMPARE(int(sizes.size()), 1);
        QVERIFY2(sizes[0].probe, qPrintable(sizes[0].error));
        const QString text = flushConsentText(sizes, false);
        QVERIFY2(text.contains(QStringLiteral("<li>primary %1 (slots 0,40,80,120,160,200,240,280 and 402 more ranges, 410 slots in "
                                              "all) holds no keys</li>")
                                   .arg(QString::fromStdString(node.hostPort()))),
                 qPrintable(text.left(3000)));
        QVERIFY2(text.contains(QLatin1String("<li>and 24 more primaries, which hold no keys</li></ul>")), qPrintable(text.left(3000)));
        QCOMPARE(text.count(QLatin1String("<li>primary ")), 16);
        QVERIFY2(text.size() < 5000, qPrintable(QString::number(text.size())));
    }

    // Remove takes away what the user added, and what was said about adding it: "Added endpoint
    // …" stayed under the list after the endpoint was gone. A server found in the cache comes back
    // with the next discovery, so Remove is not offered for it.
    void removeForgetsTheEndpointAndItsMessage()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-");
        ServersPanel panel;
        panel.show();
        panel.discover();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isDiscovering(), 60000);
        auto *list = panel.findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QPushButton *remove = nullptr;
        for (QPushButton *button : panel.findChildren<QPushButton *>()) {
            if (button->text() == QLatin1String("Remove"))
                remove = button;
        }
        QVERIFY(list && remove);
        // Rows are in the order of labels(), as the user sees them.
        const auto select = [list, &panel](const QString &label) {
            const int row = panel.labels().indexOf(label);
            if (row < 0)
                return false;
            // Inside the viewport: a row of long names is wider than the list, its centre outside it.
            const QRect rect = list->visualItemRect(list->topLevelItem(row));
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                              QPoint(std::min(rect.center().x(), list->viewport()->width() / 2), rect.center().y()));
            return list->currentItem() == list->topLevelItem(row);
        };
        QVERIFY(panel.labels().contains(spec.label));
        QVERIFY(select(spec.label));
        QVERIFY(!remove->isEnabled());

        const QString hostPort = QStringLiteral("127.0.0.1:6399");
        QCOMPARE(panel.addEndpoint(hostPort, QString()), QString());
        QCOMPARE(panel.inlineMessage(), QStringLiteral("Added endpoint %1. It is flushed only if you confirm before a run.").arg(hostPort));
        QVERIFY(panel.labels().contains(hostPort));
        QVERIFY(select(hostPort));
        QVERIFY(remove->isEnabled());
        QTest::mouseClick(remove, Qt::LeftButton);
        QVERIFY(!panel.labels().contains(hostPort));
        QVERIFY(panel.labels().contains(spec.label));
        QCOMPARE(panel.inlineMessage(), QStringLiteral("Removed endpoint %1.").arg(hostPort));
        QVERIFY(!QSettings().value(QStringLiteral("servers/endpoints")).toStringList().contains(hostPort));
    }

    // The window's run, with one server named twice: not started, both names in the reason,
    // the consent never asked, the key still there.
    void sameServerTwiceIsRefusedBeforeTheQuestion()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(server.command({"SET", "precious", "data"}), QStringLiteral("OK"));
        QString runId;
        for (const QString &line : server.command({"INFO", "server"}).split(QStringLiteral("\r\n"))) {
            if (line.startsWith(QLatin1String("run_id:")))
                runId = line.mid(7);
        }
        QVERIFY(!runId.isEmpty());
        const QString first = QStringLiteral("localhost:%1").arg(server.port());
        const QString second = QStringLiteral("[::1]:%1").arg(server.port());
        RunRequest request;
        request.servers = {ServerCatalog::parseEndpoint(first).value(), ServerCatalog::parseEndpoint(second).value()};
        Outcome<std::shared_ptr<Workload>> workload = makeWorkload(QStringLiteral("hash-ttl"), {}, QString(), 0, false);
        QVERIFY(workload);
        request.workload = workload.value();

        RunCoordinator coordinator(nullptr);
        bool asked = false;
        coordinator.setConsentHandler([&asked](const std::vector<EndpointSize> &) {
            asked = true;
            return FlushDecision::Allow;
        });
        QSignalSpy notStarted(&coordinator, &RunCoordinator::notStarted);
        QSignalSpy started(&coordinator, &RunCoordinator::started);
        coordinator.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(notStarted.count(), 1, 30000);
        QCOMPARE(notStarted.first().first().toString(),
                 QStringLiteral("Not started: %1 and %2 are the same server (INFO server run_id %3): name it once.").arg(first, second, runId));
        QCOMPARE(started.count(), 0);
        QVERIFY(!asked);
        QCOMPARE(server.command({"GET", "precious"}), QStringLiteral("data"));
    }
};

QTEST_MAIN(EndpointDialogTest)
#include "tst_endpointdialog.moc"
