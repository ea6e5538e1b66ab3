#include "logview.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTime>
#include <QVBoxLayout>

namespace {
constexpr int maxLinesPerServer = 5000;
}

LogView::LogView(QWidget *parent) : QWidget(parent)
{
    m_server = new QComboBox;
    m_server->setObjectName(QStringLiteral("logServer"));
    m_server->addItem(tr("All servers"), QString());
    m_server->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_text = new QPlainTextEdit;
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(maxLinesPerServer);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    connect(m_server, qOverload<int>(&QComboBox::currentIndexChanged), this, &LogView::showSelected);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Server")));
    top->addWidget(m_server);
    top->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(top);
    layout->addWidget(m_text, 1);
}

void LogView::clear()
{
    m_lines.clear();
    m_all.clear();
    m_server->blockSignals(true);
    while (m_server->count() > 1)
        m_server->removeItem(1);
    m_server->setCurrentIndex(0);
    m_server->blockSignals(false);
    m_text->clear();
}

void LogView::appendLine(const QString &serverId, const QString &line)
{
    if (!m_lines.count(serverId))
        m_server->addItem(serverId, serverId);
    QStringList &lines = m_lines[serverId];
    const QString stamped = QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + line;
    lines << stamped;
    if (lines.size() > maxLinesPerServer)
        lines.removeFirst();
    const QString tagged = QStringLiteral("[%1] %2").arg(serverId, stamped);
    m_all << tagged;
    if (m_all.size() > maxLinesPerServer)
        m_all.removeFirst();
    const QString selected = m_server->currentData().toString();
    if (selected.isEmpty())
        m_text->appendPlainText(masked(tagged));
    else if (selected == serverId)
        m_text->appendPlainText(masked(stamped));
}

void LogView::addServerTail(const QString &serverId, const QStringList &lines)
{
    if (lines.isEmpty())
        return;
    appendLine(serverId, tr("— last lines of the server's own log —"));
    for (const QString &line : lines)
        appendLine(serverId, QStringLiteral("  ") + line);
}

QStringList LogView::lines(const QString &serverId) const
{
    auto it = m_lines.find(serverId);
    return it == m_lines.end() ? QStringList() : it->second;
}

void LogView::setHiddenText(const QStringList &secrets)
{
    m_secrets = secrets;
    showSelected();
}

QString LogView::masked(const QString &line) const
{
    QString text = line;
    for (const QString &secret : m_secrets)
        if (!secret.isEmpty())
            text.replace(secret, QStringLiteral("…"));
    return text;
}

void LogView::showSelected()
{
    const QString selected = m_server->currentData().toString();
    const QStringList &source = selected.isEmpty() ? m_all : m_lines[selected];
    QStringList shown;
    for (const QString &line : source)
        shown << masked(line);
    m_text->setPlainText(shown.join(QLatin1Char('\n')));
    m_text->moveCursor(QTextCursor::End);
}
