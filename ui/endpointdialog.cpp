#include "endpointdialog.h"

#include "backgroundtasks.h"
#include "endpointprobe.h"
#include "servercatalog.h"
#include "serveridentity.h"
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

const QString kFailedStyle = QStringLiteral("color: #c62828;");
const QString kConnectedStyle = QStringLiteral("color: #2e7d32;");
constexpr int kTestTimeoutMs = 5000;

// "Connected: Valkey 9.1.2 over TLS (server certificate checked against ca.pem, SNI
// cache.example.test), 3 keys", or why it could not, without the address the user just typed.
QString testedText(const Outcome<EndpointProbe> &probe, const TlsSettings &tls, const QString &name)
{
    if (!probe) {
        QString reason = probe.error();
        if (reason.startsWith(name + QStringLiteral(": ")))
            reason = reason.mid(name.size() + 2);
        return QObject::tr("Could not connect: %1").arg(reason);
    }
    ServerIdentity identity;
    identity.product = probe->product;
    identity.version = probe->version;
    const QString server = probe->version.isEmpty() ? QObject::tr("a server that does not say its version")
                                                    : identity.displayName();
    // tlsDescription() names --insecure, an option the window does not have.
    const QString transport = !tls.enabled ? QObject::tr("over plain TCP")
                              : tls.insecure ? QObject::tr("over TLS WITHOUT checking the server's certificate")
                                             : QObject::tr("over %1").arg(tlsDescription(tls));
    QString text = QObject::tr("Connected: %1 %2").arg(server, transport);
    if (probe->isCluster())
        text += QObject::tr(", a node of a cluster of %n primaries", nullptr, int(probe->primaries.size()));
    if (const long long keys = probe->totalKeys(); keys >= 0)
        text += keys == 1 ? QObject::tr(", 1 key") : QObject::tr(", %1 keys").arg(QLocale(QLocale::English).toString(keys));
    return text + QLatin1Char('.');
}

} // namespace

TlsChoiceNames endpointDialogTlsNames()
{
    TlsChoiceNames names;
    names.tlsOn = QObject::tr("tick “Connect over TLS”");
    names.tlsOff = QObject::tr("untick “Connect over TLS”");
    names.caCert = QObject::tr("“CA certificates”");
    names.cert = QObject::tr("“Client certificate”");
    names.key = QObject::tr("“Client key”");
    names.serverName = QObject::tr("“Server name (SNI)”");
    return names;
}

EndpointDialog::EndpointDialog(QWidget *parent) : QDialog(parent), m_tasks(new BackgroundTasks(this))
{
    setWindowTitle(tr("Add endpoint"));
    m_hostPort = new QLineEdit;
    m_hostPort->setPlaceholderText(QStringLiteral("127.0.0.1:6379"));
    m_hostPort->setObjectName(QStringLiteral("endpointHostPort"));
    m_user = new QLineEdit;
    m_user->setPlaceholderText(tr("optional: an ACL user; empty: the default user"));
    m_user->setObjectName(QStringLiteral("endpointUser"));
    m_password = new QLineEdit;
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("optional, never saved"));
    m_password->setObjectName(QStringLiteral("endpointPassword"));
    m_authOtherNodes = new QCheckBox(tr("Send the login to the other primaries of its cluster"));
    m_authOtherNodes->setObjectName(QStringLiteral("endpointAuthOtherNodes"));
    m_authOtherNodes->setToolTip(tr("When this server is a node of a cluster, the other primaries it names are sent the "
                                    "user and password only with this ticked: an address a node names may be anyone's. "
                                    "Unticked, a cluster whose other primaries ask for a password is refused."));
    m_tls = new QCheckBox(tr("Connect over TLS"));
    m_tls->setObjectName(QStringLiteral("endpointTls"));

    auto *note = new QLabel(tr("Versus does not launch this server. Before a run it asks you to confirm "
                               "that its data may be deleted, and refuses by default. The user and password are kept for "
                               "this session only and never saved: add the endpoint again to give them after a restart. "
                               "The TLS choices are remembered."));
    note->setWordWrap(true);
    m_test = new QPushButton(tr("Test connection"));
    m_test->setObjectName(QStringLiteral("endpointTest"));
    m_test->setToolTip(tr("Connect with these choices and ask the server who it is; nothing is changed on it"));
    connect(m_test, &QPushButton::clicked, this, &EndpointDialog::testConnection);
    m_testResult = new QLabel;
    m_testResult->setObjectName(QStringLiteral("endpointTestResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testResult->hide();
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("endpointError"));
    m_error->setStyleSheet(kFailedStyle);
    m_error->setWordWrap(true);
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Host:port"), m_hostPort);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Password"), m_password);
    form->addRow(QString(), m_authOtherNodes);
    form->addRow(QString(), m_tls);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(tlsFields());
    layout->addWidget(note);
    layout->addWidget(m_testResult);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(m_tls, &QCheckBox::toggled, this, &EndpointDialog::updateTlsFields);
    updateTlsFields();
    resize(560, sizeHint().height());
}

// A file's path with a Browse… button beside it; `row` is the two together, for the form.
QLineEdit *EndpointDialog::fileField(const QString &objectName, const QString &placeholder, QWidget **row)
{
    auto *field = new QLineEdit;
    field->setObjectName(objectName);
    field->setPlaceholderText(placeholder);
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, field] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Choose a PEM file"), field->text());
        if (!path.isEmpty())
            field->setText(path);
    });
    *row = new QWidget;
    auto *line = new QHBoxLayout(*row);
    line->setContentsMargins(0, 0, 0, 0);
    line->addWidget(field, 1);
    line->addWidget(browse);
    return field;
}

// The TLS choices `versus run` has (--cacert, --sni, --cert, --key, --insecure), under the box
// that turns TLS on, in the words endpointDialogTlsNames() gives messages.
QWidget *EndpointDialog::tlsFields()
{
    QWidget *caRow = nullptr, *certRow = nullptr, *keyRow = nullptr;
    m_caCert = fileField(QStringLiteral("endpointCaCert"), tr("PEM; empty: the system's trusted CAs"), &caRow);
    m_cert = fileField(QStringLiteral("endpointCert"), tr("PEM; only for a server that asks for one"), &certRow);
    m_key = fileField(QStringLiteral("endpointKey"), tr("PEM, without a passphrase; never copied"), &keyRow);
    m_serverName = new QLineEdit;
    m_serverName->setObjectName(QStringLiteral("endpointServerName"));
    m_serverName->setPlaceholderText(tr("empty: the host above"));
    m_serverName->setToolTip(tr("The name sent in the handshake and checked against the server's certificate: the "
                                "name the certificate is made out to, when you connect by another name or an address"));
    m_insecure = new QCheckBox(tr("Don't check the server's certificate"));
    m_insecure->setObjectName(QStringLiteral("endpointInsecure"));
    m_insecureWarning = new QLabel(tr("Anyone on the path can then read and change the traffic, the password included."));
    m_insecureWarning->setObjectName(QStringLiteral("endpointInsecureWarning"));
    m_insecureWarning->setStyleSheet(kFailedStyle);
    m_insecureWarning->setWordWrap(true);
    connect(m_insecure, &QCheckBox::toggled, this, &EndpointDialog::updateTlsFields);

    m_tlsFields = new QWidget;
    auto *form = new QFormLayout(m_tlsFields);
    form->setContentsMargins(24, 0, 0, 0);
    form->addRow(tr("CA certificates"), caRow);
    form->addRow(tr("Server name (SNI)"), m_serverName);
    form->addRow(tr("Client certificate"), certRow);
    form->addRow(tr("Client key"), keyRow);
    form->addRow(QString(), m_insecure);
    form->addRow(QString(), m_insecureWarning);
    return m_tlsFields;
}

void EndpointDialog::updateTlsFields()
{
    m_tlsFields->setEnabled(m_tls->isChecked());
    m_insecureWarning->setVisible(m_tls->isChecked() && m_insecure->isChecked());
}

QString EndpointDialog::hostPort() const { return m_hostPort->text().trimmed(); }
QString EndpointDialog::password() const { return m_password->text(); }

EndpointAccess EndpointDialog::access() const
{
    return EndpointAccess{m_user->text().trimmed(), m_authOtherNodes->isChecked()};
}

TlsSettings EndpointDialog::tls() const
{
    TlsSettings tls;
    tls.names = endpointDialogTlsNames();
    tls.enabled = m_tls->isChecked();
    if (!tls.enabled)
        return tls;
    tls.caCertFile = m_caCert->text().trimmed();
    tls.serverName = m_serverName->text().trimmed();
    tls.certFile = m_cert->text().trimmed();
    tls.keyFile = m_key->text().trimmed();
    tls.insecure = m_insecure->isChecked();
    return tls;
}

void EndpointDialog::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString EndpointDialog::testResult() const
{
    return m_testResult->isHidden() ? QString() : m_testResult->text();
}

// The address and the files are checked here, at once; the server is asked on a pool thread,
// and its answer comes back to the GUI thread as a value.
void EndpointDialog::testConnection()
{
    Outcome<ServerSpec> endpoint = ServerCatalog::parseEndpoint(hostPort());
    const TlsSettings chosen = tls();
    Status files = endpoint ? checkTlsFiles(chosen) : Status(Error{endpoint.error()});
    if (!files) {
        showTestResult(false, tr("Could not connect: %1").arg(files.error()));
        return;
    }
    ServerSpec spec = endpoint.value();
    spec.tls = chosen;
    spec.user = access().user;
    spec.password = password();
    spec.authOtherNodes = access().authOtherNodes;
    m_testing = true;
    m_test->setEnabled(false);
    m_testResult->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_testResult->setText(tr("Connecting to %1…").arg(hostPort()));
    m_testResult->show();
    const QString name = spec.label;
    m_tasks->run<Outcome<EndpointProbe>>([spec] { return probeEndpoint(spec, kTestTimeoutMs); },
                                         [this, chosen, name](const Outcome<EndpointProbe> &probe) {
        m_testing = false;
        m_test->setEnabled(true);
        showTestResult(bool(probe), testedText(probe, chosen, name));
    });
}

void EndpointDialog::showTestResult(bool connected, const QString &text)
{
    m_testResult->setStyleSheet(connected ? kConnectedStyle : kFailedStyle);
    m_testResult->setText(text);
    m_testResult->show();
    Q_EMIT tested(connected, text);
}
