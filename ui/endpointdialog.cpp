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
    m_password = new QLineEdit;
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("optional, never saved"));
    m_password->setObjectName(QStringLiteral("endpointPassword"));
    m_hostPort->setObjectName(QStringLiteral("endpointHostPort"));
    m_tls = new QCheckBox(tr("Connect over TLS"));
    m_tls->setObjectName(QStringLiteral("endpointTls"));
    m_caCert = new QLineEdit;
    m_caCert->setObjectName(QStringLiteral("endpointCaCert"));
    m_caCert->setPlaceholderText(tr("CA certificate file (PEM); empty: the system's trusted CAs"));
    m_caCert->setEnabled(false);
    connect(m_tls, &QCheckBox::toggled, m_caCert, &QLineEdit::setEnabled);

    auto *note = new QLabel(tr("Versus does not launch this server. Before a run it asks you to confirm "
                               "that its data may be deleted, and refuses by default. The password is kept for "
                               "this session only and never saved: add the endpoint again to give it after a restart."));
    note->setWordWrap(true);
    m_error = new QLabel;
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setWordWrap(true);
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Host:port"), m_hostPort);
    form->addRow(tr("Password"), m_password);
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
