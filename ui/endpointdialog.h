#pragma once
// Asks for the host:port (and optional ACL user and password) of a server Versus does not
// launch, whether to reach it over TLS and how (every TLS choice `versus run` has: the CA
// certificates, the server name sent and checked, a client certificate and its key, or no check
// at all), and whether the other primaries of its cluster may be sent the login. *Test
// connection* asks the server who it is, off the GUI thread, and says what it answered.

#include "tlssettings.h"
#include <QDialog>

// How an endpoint is logged in to, beside its password (kept for the session, never saved).
struct EndpointAccess {
    QString user;                 // ACL user (AUTH user password); empty: the default user
    bool authOtherNodes = false;  // the login also goes to the other primaries of its cluster
};

// The dialog's fields as messages about TLS name them ("give the server's CA with “CA
// certificates”"), never a command-line option.
TlsChoiceNames endpointDialogTlsNames();

class BackgroundTasks;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QWidget;

class EndpointDialog : public QDialog {
    Q_OBJECT
public:
    explicit EndpointDialog(QWidget *parent = nullptr);
    QString hostPort() const;
    QString password() const;
    EndpointAccess access() const;
    // Not enabled when "Connect over TLS" is unticked; named for the dialog's fields.
    TlsSettings tls() const;
    void setError(const QString &message);   // shown inside the dialog, which stays open
    // What the last Test connection found ("Connected: Valkey 9.1.2 over TLS …", or why not);
    // empty before one ended.
    QString testResult() const;
    bool isTesting() const { return m_testing; }

Q_SIGNALS:
    void tested(bool connected, const QString &text);

private:
    QWidget *tlsFields();
    QLineEdit *fileField(const QString &objectName, const QString &placeholder, QWidget **row);
    void updateTlsFields();
    void testConnection();
    void showTestResult(bool connected, const QString &text);

    QLineEdit *m_hostPort = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QCheckBox *m_authOtherNodes = nullptr;
    QCheckBox *m_tls = nullptr;
    QWidget *m_tlsFields = nullptr;
    QLineEdit *m_caCert = nullptr;
    QLineEdit *m_serverName = nullptr;
    QLineEdit *m_cert = nullptr;
    QLineEdit *m_key = nullptr;
    QCheckBox *m_insecure = nullptr;
    QLabel *m_insecureWarning = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_error = nullptr;
    BackgroundTasks *m_tasks = nullptr;
    bool m_testing = false;
};
