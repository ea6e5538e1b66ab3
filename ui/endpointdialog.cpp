#include "endpointdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

EndpointDialog::EndpointDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Add endpoint"));
    m_hostPort = new QLineEdit;
    m_hostPort->setPlaceholderText(QStringLiteral("127.0.0.1:6379"));
    m_user = new QLineEdit;
    m_user->setPlaceholderText(tr("optional: an ACL user; empty: the default user"));
    m_user->setObjectName(QStringLiteral("endpointUser"));
    m_password = new QLineEdit;
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("optional, never saved"));
    m_password->setObjectName(QStringLiteral("endpointPassword"));
    m_hostPort->setObjectName(QStringLiteral("endpointHostPort"));
    m_authOtherNodes = new QCheckBox(tr("Send the login to the other primaries of its cluster"));
    m_authOtherNodes->setObjectName(QStringLiteral("endpointAuthOtherNodes"));
    m_authOtherNodes->setToolTip(tr("When this server is a node of a cluster, the other primaries it names are sent the "
                                    "user and password only with this ticked: an address a node names may be anyone's. "
                                    "Unticked, a cluster whose other primaries ask for a password is refused."));
    m_tls = new QCheckBox(tr("Connect over TLS"));
    m_tls->setObjectName(QStringLiteral("endpointTls"));
    m_caCert = new QLineEdit;
    m_caCert->setObjectName(QStringLiteral("endpointCaCert"));
    m_caCert->setPlaceholderText(tr("CA certificate file (PEM); empty: the system's trusted CAs"));
    m_caCert->setEnabled(false);
    connect(m_tls, &QCheckBox::toggled, m_caCert, &QLineEdit::setEnabled);

    auto *note = new QLabel(tr("Versus does not launch this server. Before a run it asks you to confirm "
                               "that its data may be deleted, and refuses by default. The user and password are kept for "
                               "this session only and never saved: add the endpoint again to give them after a restart."));
    note->setWordWrap(true);
    m_error = new QLabel;
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setWordWrap(true);
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Host:port"), m_hostPort);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Password"), m_password);
    form->addRow(QString(), m_authOtherNodes);
    form->addRow(QString(), m_tls);
    form->addRow(tr("CA file"), m_caCert);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(420, sizeHint().height());
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
    tls.enabled = m_tls->isChecked();
    if (tls.enabled)
        tls.caCertFile = m_caCert->text().trimmed();
    return tls;
}

void EndpointDialog::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}
