// Startup: time from process start (the kernel's start time of this process, so dynamic
// loading counts) to the main window shown and exposed on the screen. Each measurement is a
// fresh process: the benchmark runs itself with --once several times and takes the median.
// The window is the one `versus` shows (MainWindow from the ui library); the catalog of
// servers is discovered in the background and is not waited for.
//
// Usage: bench_startup [--runs N]        (QT_QPA_PLATFORM defaults to offscreen)

#include "benchsupport.h"
#include "mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QWindow>
#include <ctime>
#include <unistd.h>

namespace {

// Milliseconds since this process was started, from /proc/self/stat (clock ticks since boot)
// and CLOCK_BOOTTIME; the resolution is one clock tick (10 ms on this kernel configuration).
double msSinceProcessStart()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    // Fields after the command name, which is in parentheses and may contain spaces.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const double startTicks = fields.value(19).toDouble();   // field 22 overall
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double nowMs = double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
    return nowMs - startTicks * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

int once(int argc, char **argv)
{
    QApplication app(argc, argv);
    // A private settings scope: the benchmark must not change the user's saved choices.
    QApplication::setOrganizationName(QStringLiteral("versus-bench"));
    QApplication::setApplicationName(QStringLiteral("versus-bench"));
    const double appMs = msSinceProcessStart();
    MainWindow window;
    const double constructedMs = msSinceProcessStart();
    window.show();
    QElapsedTimer guard;
    guard.start();
    while (!(window.windowHandle() && window.windowHandle()->isExposed()) && guard.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();   // the first paint
    const double shownMs = msSinceProcessStart();
    std::printf("once: application %.0f ms, window constructed %.0f ms, shown %.0f ms, cpu %.0f ms\n", appMs,
                constructedMs, shownMs, Bench::cpuMs());
    std::fflush(stdout);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    for (int i = 1; i < argc; ++i)
        if (QByteArray(argv[i]) == "--once")
            return once(argc, argv);

    QCoreApplication app(argc, argv);
    int runs = 5;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i)
        if (args[i] == QLatin1String("--runs"))
            runs = args[i + 1].toInt();

    std::vector<double> shown;
    std::vector<double> cpu;
    for (int run = 0; run <= runs; ++run) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--once")});
        if (!child.waitForFinished(30000) || child.exitCode() != 0)
            Bench::fail(QStringLiteral("bench_startup --once failed"));
        const QString line = QString::fromLocal8Bit(child.readAllStandardOutput()).trimmed();
        std::printf("%s%s\n", qPrintable(line), run == 0 ? "   (warm-up, not counted)" : "");
        const QString value = line.section(QStringLiteral("shown "), 1).section(QLatin1Char(' '), 0, 0);
        if (run > 0) {
            shown.push_back(value.toDouble());
            cpu.push_back(line.section(QStringLiteral("cpu "), 1).section(QLatin1Char(' '), 0, 0).toDouble());
        }
    }
    std::printf("median CPU time to the window shown: %.0f ms\n", Bench::median(cpu));
    std::printf("window_shown_ms: %.0f\n", Bench::median(shown));
    return 0;
}
