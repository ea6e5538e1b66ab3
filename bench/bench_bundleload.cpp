// Loading a hostile bundle: real-ecommerce.json with one object of a great many members (a
// server's "config", as a bundle made to hurt could carry), at about 1 MB and 14 MB, read by
// loadBundle, the function `versus export` and the window's Open and Compare use. Parsing used
// to be quadratic in the members of one object (nlohmann's ordered_json looks each new key up
// among those before it): 1.1 MB took 14 s. Prints the time of each size, the members' count
// and the machine's load average, which the wall time depends on (the machine is shared).
//
// Usage: bench_bundleload [--runs N]

#include "benchsupport.h"
#include "bundlejson.h"
#include "jsonsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <ctime>

namespace {

// The fixture with `members` settings added to its first server's config, written to `path`;
// the file's size.
qint64 writeHostileBundle(const QString &path, int members)
{
    QFile fixture(QStringLiteral(VERSUS_SOURCE_DIR "/tests/fixtures/bundles/real-ecommerce.json"));
    if (!fixture.open(QIODevice::ReadOnly))
        return -1;
    Outcome<Json> root = parseJson(fixture.readAll(), fixture.fileName());
    if (!root)
        return -1;
    // Written as text, not through Json: building the object is what is being measured.
    QByteArray config = "{";
    for (int i = 0; i < members; ++i)
        config += (i ? ",\"s" : "\"s") + QByteArray::number(i) + "\":\"v\"";
    config += "}";
    root.value()["servers"][0]["config"] = "@CONFIG@";
    QByteArray text = QByteArray::fromStdString(root->dump());
    text.replace("\"@CONFIG@\"", config);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        return -1;
    return text.size();
}

double threadCpuSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2) : QStringLiteral("?");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const int runsAt = int(arguments.indexOf(QStringLiteral("--runs")));
    const int runs = runsAt > 0 ? std::max(1, arguments.value(runsAt + 1).toInt()) : 3;
    QTemporaryDir dir;
    // About 1 MB and 14 MB (the fixture is 0.1 MB, a member 12 to 14 bytes).
    for (const int members : {75000, 990000}) {
        const QString path = dir.filePath(QStringLiteral("hostile-%1.json").arg(members));
        const qint64 bytes = writeHostileBundle(path, members);
        if (bytes < 0) {
            std::fprintf(stderr, "bench_bundleload: cannot write %s\n", qPrintable(path));
            return 2;
        }
        // Wall time, and this thread's CPU time: on a shared machine the second says what the
        // parse costs, the first what a user waits.
        std::vector<double> seconds, cpuSeconds;
        QString outcome;
        for (int run = 0; run < runs; ++run) {
            QElapsedTimer clock;
            clock.start();
            const double cpuBefore = threadCpuSeconds();
            const Outcome<ResultsBundle> loaded = loadBundle(path);
            cpuSeconds.push_back(threadCpuSeconds() - cpuBefore);
            seconds.push_back(double(clock.nsecsElapsed()) / 1e9);
            outcome = loaded ? QStringLiteral("loaded") : QStringLiteral("refused: ") + loaded.error().left(200);
        }
        std::sort(seconds.begin(), seconds.end());
        std::sort(cpuSeconds.begin(), cpuSeconds.end());
        std::printf("%.1f MB, %d members in one object: median %.3f s wall (min %.3f, max %.3f), %.3f s CPU, %d runs, %s; "
                    "load average %s\n",
                    double(bytes) / 1e6, members, seconds[seconds.size() / 2], seconds.front(), seconds.back(),
                    cpuSeconds[cpuSeconds.size() / 2], runs, qPrintable(outcome), qPrintable(loadAverage()));
        if (members == 990000)
            std::printf("bundle_load_14mb_cpu_s: %.3f\n", cpuSeconds[cpuSeconds.size() / 2]);
        std::fflush(stdout);
    }
    return 0;
}
