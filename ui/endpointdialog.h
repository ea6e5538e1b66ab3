#pragma once
// Asks for the host:port (and optional password) of a server Versus does not launch.

#include <QDialog>

class QLabel;
class QLineEdit;

class EndpointDialog : public QDialog {
    Q_OBJECT
public:
    explicit EndpointDialog(QWidget *parent = nullptr);
    QString hostPort() const;
    QString password() const;
    void setError(const QString &message);   // shown inside the dialog, which stays open

private:
    QLineEdit *m_hostPort = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_error = nullptr;
};
