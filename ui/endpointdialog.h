#pragma once
// Asks for the host:port (and optional ACL user and password) of a server Versus does not
// launch, whether to reach it over TLS (with a CA file to check its certificate against), and
// whether the other primaries of its cluster may be sent the login.

#include "tlssettings.h"
#include <QDialog>

// How an endpoint is logged in to, beside its password (kept for the session, never saved).
struct EndpointAccess {
    QString user;                 // ACL user (AUTH user password); empty: the default user
    bool authOtherNodes = false;  // the login also goes to the other primaries of its cluster
};

class QCheckBox;
class QLabel;
class QLineEdit;

class EndpointDialog : public QDialog {
    Q_OBJECT
public:
    explicit EndpointDialog(QWidget *parent = nullptr);
    QString hostPort() const;
    QString password() const;
    EndpointAccess access() const;
    // TLS with the CA file given (empty: the system's trusted CAs); not enabled when unticked.
    TlsSettings tls() const;
    void setError(const QString &message);   // shown inside the dialog, which stays open

private:
    QLineEdit *m_hostPort = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QCheckBox *m_authOtherNodes = nullptr;
    QCheckBox *m_tls = nullptr;
    QLineEdit *m_caCert = nullptr;
    QLabel *m_error = nullptr;
};
