#include "buildconsole.h"

#include "interruption.h"
#include "servercatalog.h"
#include "messagetext.h"
#include "terminalwrite.h"

#include <QElapsedTimer>
#include <unistd.h>

namespace {

class BuildLine {
public:
    explicit BuildLine(std::FILE *stream)
        : m_stream(stream)
        , m_interactive(::isatty(::fileno(stream)) == 1)
    {
        m_elapsed.start();
    }

    void show(const BuildProgress &progress)
    {
        const QString percent = progress.percent >= 0 ? QStringLiteral("%1%").arg(progress.percent, 3) : QStringLiteral("  …");
        const QString line = QStringLiteral("build: %1  %2  %3  (%4 s)")
                                 .arg(percent, progress.step.leftJustified(7), progress.detail.left(60))
                                 .arg(m_elapsed.elapsed() / 1000);
        const bool newStep = progress.step != m_step;
        const bool newTenth = progress.percent / 10 != m_percent / 10;
        if (m_interactive) {
            std::fputs("\r\x1b[K", m_stream);
            writeTerminal(m_stream, terminalText(line, LineBreaks::Shown));
        } else if (newStep || newTenth) {
            writeTerminal(m_stream, line + QLatin1Char('\n'));
        }
        std::fflush(m_stream);
        m_step = progress.step;
        m_percent = progress.percent;
    }

    void finish()
    {
        if (m_interactive)
            std::fprintf(m_stream, "\n");
    }

private:
    std::FILE *m_stream;
    bool m_interactive;
    QElapsedTimer m_elapsed;
    QString m_step;
    int m_percent = -1;
};

} // namespace

Outcome<BuiltServer> buildWithConsoleProgress(const QString &path, std::FILE *stream)
{
    installInterruptHandlers();
    BuildLine line(stream);
    SourceBuilder builder(ServerCatalog::defaultCacheDir());
    builder.setProgress([&line](const BuildProgress &progress) { line.show(progress); });
    builder.setCancelled([] { return interruptRequested(); });
    Outcome<BuiltServer> built = builder.build(path);
    line.finish();
    return built;
}
