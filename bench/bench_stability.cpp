// Measurement stability: `versus run --repeat 5 --schedule fair` on 3 versions with the
// default workload (each repeat on a freshly started server), then, from the bundle: the
// coefficient of variation of each version's overall µs/command over the repeats, whether
// the versions rank the same in every repeat, and the spread of memory per attribute (overall
// and per type) across repeats, and the CV of each version's µs/command relative to the first
// server's in the same repeat.
//
// Usage: bench_stability [--quick] [--repeats N] [--servers a,b,c]
//   --quick   3 repeats of 4000 generated events, for development.

#include "benchsupport.h"
#include "bundlejson.h"
#include "figures.h"
#include "presentation.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <map>
#include <set>

namespace {

// max − min over the median, in percent; 0 when all are equal.
double spreadPercent(const std::vector<double> &values)
{
    if (values.empty())
        return 0;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double med = Bench::median(values);
    return med == 0 ? 0 : 100.0 * (*hi - *lo) / med;
}

struct Options {
    int repeats = 5;
    QString events;    // empty: the workload's own default
    QString servers;   // comma-separated labels
};

Options parseOptions(const QStringList &args)
{
    Options options;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--quick")) {
            options.repeats = 3;
            options.events = QStringLiteral("4000");
        } else if (args[i] == QLatin1String("--repeats") && i + 1 < args.size()) {
            options.repeats = args[++i].toInt();
        } else if (args[i] == QLatin1String("--servers") && i + 1 < args.size()) {
            options.servers = args[++i];
        }
    }
    if (options.servers.isEmpty())
        options.servers = Bench::stabilityServerLabels().join(QLatin1Char(','));
    return options;
}

QStringList versusRunArguments(const Options &options, const QString &bundlePath)
{
    QStringList runArgs = {QStringLiteral("run"), QStringLiteral("--servers"), options.servers, QStringLiteral("--repeat"),
                           QString::number(options.repeats), QStringLiteral("--schedule"), QStringLiteral("fair"),
                           QStringLiteral("--out"), bundlePath};
    if (!options.events.isEmpty())
        runArgs << QStringLiteral("--events") << options.events;
    return runArgs;
}

// Runs versus to the end, its report discarded: only the bundle it writes is read.
void runVersus(const QStringList &runArgs)
{
    std::printf("versus %s\n", qPrintable(runArgs.join(QLatin1Char(' '))));
    std::fflush(stdout);
    QProcess versus;
    versus.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    versus.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer clock;
    clock.start();
    versus.start(QStringLiteral(VERSUS_BINARY), runArgs);
    if (!versus.waitForFinished(-1) || versus.exitCode() != 0)
        Bench::fail(QStringLiteral("versus run failed (exit %1)").arg(versus.exitCode()));
    std::printf("run took %.0f s\n\n", double(clock.elapsed()) / 1000.0);
}

// The largest figures over all servers, folded in as each server's row is printed.
struct Maxima {
    double cv = 0;
    double memorySpread = 0;
};

// For each repeat number: each server's µs/command in it, with the server's id.
using UsecByRepeat = std::map<int, std::vector<std::pair<double, QString>>>;

void printTypeMemory(const std::map<QString, std::vector<double>> &typeBytes, Maxima &maxima)
{
    for (const auto &[type, values] : typeBytes) {
        const double s = spreadPercent(values);
        maxima.memorySpread = std::max(maxima.memorySpread, s);
        QString list;
        for (double v : values)
            list += QString::number(v, 'f', 1) + QLatin1Char(' ');
        std::printf("    memory %-18s B/key per repeat: %s(spread %.3f%%)\n", qPrintable(type), qPrintable(list), s);
    }
}

// The server's row, then one line per type of its memory; fails on a repeat that did not
// succeed.
void printServer(const ServerRun &run, Maxima &maxima, UsecByRepeat &usecByRepeat)
{
    std::vector<double> usec;
    std::vector<double> bytes;
    std::map<QString, std::vector<double>> typeBytes;
    QString perRepeat;
    for (const RepeatResult &repeat : run.repeats) {
        if (repeat.status != RepeatStatus::Ok)
            Bench::fail(QStringLiteral("%1 repeat %2: %3 %4").arg(run.id).arg(repeat.repeat).arg(repeatStatusName(repeat.status), repeat.error));
        usec.push_back(repeat.timing.usecPerCall());
        bytes.push_back(repeat.bytesPerKey());
        for (const auto &[type, memory] : repeat.byType)
            typeBytes[type].push_back(memory.bytesPerKey());
        usecByRepeat[repeat.repeat].push_back({repeat.timing.usecPerCall(), run.id});
        perRepeat += QString::number(repeat.timing.usecPerCall(), 'f', 3) + QLatin1Char(' ');
    }
    const double cv = Bench::cvPercent(usec);
    maxima.cv = std::max(maxima.cv, cv);
    const double memSpread = spreadPercent(bytes);
    maxima.memorySpread = std::max(maxima.memorySpread, memSpread);
    std::printf("%-14s %-42s %8.2f %8.3f\n", qPrintable(run.id), qPrintable(perRepeat), cv, memSpread);
    printTypeMemory(typeBytes, maxima);
}

// Sorts each repeat's entries, fastest first, and prints the order of each repeat.
void printRepeatOrders(UsecByRepeat &usecByRepeat)
{
    std::set<QStringList> orders;
    for (auto &[repeat, entries] : usecByRepeat) {
        std::sort(entries.begin(), entries.end());
        QStringList order;
        for (const auto &entry : entries)
            order << entry.second;
        orders.insert(order);
        std::printf("repeat %d order (fastest first): %s\n", repeat, qPrintable(order.join(QStringLiteral(" < "))));
    }
    std::printf("same order in every repeat: %s\n", orders.size() == 1 ? "yes" : "no");
}

// The versions take turns within milliseconds, so a change in the machine's own speed
// moves all of them together; their ratio to the first server shows how steady the
// comparison itself is.
void printRatiosToFirstServer(const ResultsBundle &bundle)
{
    const Figures figures(bundle);
    const FigureTable times = figures.commandTime();
    const ServerRun &baseline = bundle.servers.front();
    for (size_t s = 1; s < bundle.servers.size(); ++s) {
        const ServerRun &run = bundle.servers[s];
        std::vector<double> ratios;
        QString list;
        for (size_t r = 0; r < run.repeats.size() && r < baseline.repeats.size(); ++r) {
            ratios.push_back(run.repeats[r].timing.usecPerCall() / baseline.repeats[r].timing.usecPerCall());
            list += QString::number(ratios.back(), 'f', 3) + QLatin1Char(' ');
        }
        const Spread paired = times.at(0, run.id).pairedRatio;
        std::printf("%s / %s per repeat: %s(CV %.2f%%; change %s, as the Markdown results give it)\n", qPrintable(run.id),
                    qPrintable(baseline.id), qPrintable(list), Bench::cvPercent(ratios),
                    qPrintable(formatChangeRange(paired, true)));
        if (paired.hasInterval())
            std::printf("paired_interval_width_percent %s: %.2f\n", qPrintable(run.id), 100.0 * (paired.ciHigh - paired.ciLow));
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app.arguments());

    QTemporaryDir dir;
    const QString bundlePath = dir.filePath(QStringLiteral("bundle.json"));
    runVersus(versusRunArguments(options, bundlePath));

    Outcome<ResultsBundle> loaded = loadBundle(bundlePath);
    if (!loaded)
        Bench::fail(loaded.error());
    const ResultsBundle &bundle = loaded.value();

    Maxima maxima;
    UsecByRepeat usecByRepeat;
    std::printf("%-14s %-42s %8s %8s\n", "server", "µs/command per repeat", "CV %", "B/attr spread %");
    for (const ServerRun &run : bundle.servers)
        printServer(run, maxima, usecByRepeat);
    printRepeatOrders(usecByRepeat);
    printRatiosToFirstServer(bundle);
    std::printf("largest memory spread across repeats: %.3f%% (0 means identical)\n", maxima.memorySpread);
    std::printf("max_cv_percent: %.2f\n", maxima.cv);
    return 0;
}
