#pragma once
// Asks for the host:port (and optional password) of a server Versus does not launch, and
// whether to reach it over TLS (with a CA file to check its certificate against).

#include "tlssettings.h"
#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;

class EndpointDialog : public QDialog {
    Q_OBJECT
public:
    explicit EndpointDialog(QWidget *parent = nullptr);
    QString hostPort() const;
    QString password() const;
    // TLS with the CA file given (empty: the system's trusted CAs); not enabled when unticked.
    TlsSettings tls() const;
    void setError(const QString &message);   // shown inside the dialog, which stays open

private:
    QLineEdit *m_hostPort = nullptr;
    QLineEdit *m_password = nullptr;
    QCheckBox *m_tls = nullptr;
    QLineEdit *m_caCert = nullptr;
    QLabel *m_error = nullptr;
};
