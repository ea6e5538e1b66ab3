#pragma once
// Per-server logs: what the run reported for each server (start, port, errors such as
// "HSETEX unsupported") and the server's own log tail when it ends.

#include <QWidget>
#include <map>

class QComboBox;
class QPlainTextEdit;

class LogView : public QWidget {
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);

    void clear();
    void appendLine(const QString &serverId, const QString &line);
    void addServerTail(const QString &serverId, const QStringList &lines);   // the server's own log
    QStringList lines(const QString &serverId) const;
    void setHiddenText(const QStringList &secrets);   // demo mode: paths and hosts masked

private:
    void showSelected();
    QString masked(const QString &line) const;

    QComboBox *m_server = nullptr;
    QPlainTextEdit *m_text = nullptr;
    std::map<QString, QStringList> m_lines;
    QStringList m_all;
    QStringList m_secrets;
};
