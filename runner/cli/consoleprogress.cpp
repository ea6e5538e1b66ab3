#include "consoleprogress.h"

#include "runcontroller.h"
#include "messagetext.h"
#include "terminalwrite.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace {

QString formatDuration(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("--");
    const long long total = static_cast<long long>(std::llround(seconds));
    if (total < 60)
        return QStringLiteral("%1s").arg(total);
    if (total < 3600)
        return QStringLiteral("%1m%2s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1h%2m").arg(total / 3600).arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

} // namespace

ConsoleProgress::ConsoleProgress(RunController &controller, std::FILE *stream, bool interactive)
    : m_stream(stream), m_interactive(interactive)
{
    connect(&controller, &RunController::serverProgress, this, &ConsoleProgress::onProgress);
    connect(&controller, &RunController::serverLog, this, &ConsoleProgress::onLog);
    m_sincePlain.start();
}

QString ConsoleProgress::formatLine(const ServerProgress &progress, int labelWidth, bool withBar)
{
    const double fraction = std::clamp(progress.fraction(), 0.0, 1.0);
    const int percent = int(std::floor(fraction * 100.0));
    QString line = progress.serverId.leftJustified(labelWidth);
    if (withBar) {
        const int width = 24;
        const int filled = int(std::round(fraction * width));
        line += QStringLiteral("  [") + QString(filled, QLatin1Char('#')) + QString(width - filled, QLatin1Char('.'))
            + QStringLiteral("]");
    }
    line += QStringLiteral(" %1%").arg(percent, 3);
    line += QStringLiteral("  %1").arg(progressStateName(progress.state), -9);
    if (progress.moving()) {
        line += QStringLiteral("  %1 ev/s  ETA %2")
                    .arg(QLocale::c().toString(qlonglong(std::llround(progress.eventsPerSecond))))
                    .arg(formatDuration(progress.etaSeconds));
    }
    if (!progress.phase.isEmpty())
        line += QStringLiteral("  ") + progress.phase;
    // One line per row: a message's further lines (a failed server's log tail) are in the log
    // line above, printed once.
    if (!progress.message.isEmpty()) {
        QString first = progress.message.section(QLatin1Char('\n'), 0, 0);
        // "…on port 35395. Last lines of its log:" introduces the lines left out: ends at the sentence.
        if (progress.message.contains(QLatin1Char('\n')) && first.endsWith(QLatin1Char(':')) && first.contains(QLatin1String(". ")))
            first = first.left(first.lastIndexOf(QLatin1String(". ")) + 1);
        line += QStringLiteral("  (") + first + QStringLiteral(")");
    }
    return line;
}

void ConsoleProgress::onProgress(const ServerProgress &progress)
{
    auto row = std::find_if(m_rows.begin(), m_rows.end(),
                            [&](const ServerProgress &existing) { return existing.serverId == progress.serverId; });
    const bool stateChanged = row == m_rows.end() || row->state != progress.state;
    if (row == m_rows.end())
        m_rows.push_back(progress);
    else
        *row = progress;

    if (m_interactive) {
        redraw();
        return;
    }
    // Plain mode: a line when a server changes state, and a full round every few seconds.
    int width = 0;
    for (const ServerProgress &p : m_rows)
        width = std::max(width, int(p.serverId.size()));
    const QString prefix = m_section.isEmpty() ? QString() : m_section + QStringLiteral("  ");
    if (stateChanged) {
        writeTerminal(m_stream, prefix + formatLine(progress, width, false) + QLatin1Char('\n'));
    } else if (m_sincePlain.elapsed() >= 5000) {
        for (const ServerProgress &p : m_rows)
            writeTerminal(m_stream, prefix + formatLine(p, width, false) + QLatin1Char('\n'));
        m_sincePlain.restart();
    }
    std::fflush(m_stream);
}

void ConsoleProgress::beginSection(const QString &title)
{
    m_rows.clear();
    m_drawnRows = 0;
    m_section = title;
    writeTerminal(m_stream, title + QLatin1Char('\n'));
    std::fflush(m_stream);
}

void ConsoleProgress::onLog(const QString &serverId, const QString &line)
{
    if (m_interactive && m_drawnRows > 0) {
        // Print the log line above the live block and redraw the block under it.
        std::fprintf(m_stream, "\x1b[%dA\x1b[J", m_drawnRows);
        m_drawnRows = 0;
    }
    // Every server logs the same kinds of line, so each is tagged with its server, as the
    // window's log does; errors already begin with the server they name.
    if (serverId.isEmpty() || line.startsWith(serverId + QLatin1String(": ")))
        writeTerminal(m_stream, line + QLatin1Char('\n'));
    else
        writeTerminal(m_stream, serverId + QStringLiteral(": ") + line + QLatin1Char('\n'));
    if (m_interactive)
        redraw();
    std::fflush(m_stream);
}

void ConsoleProgress::redraw()
{
    int width = 0;
    for (const ServerProgress &p : m_rows)
        width = std::max(width, int(p.serverId.size()));
    if (m_drawnRows > 0)
        std::fprintf(m_stream, "\x1b[%dA", m_drawnRows);
    for (const ServerProgress &p : m_rows)
        {
        std::fputs("\x1b[2K", m_stream);
        writeTerminal(m_stream, terminalText(formatLine(p, width, true), LineBreaks::Shown) + QLatin1Char('\n'));
    }
    m_drawnRows = int(m_rows.size());
    std::fflush(m_stream);
}
