// Export: every chart of a default-run bundle written as 2400×1350 PNG by exportAll (the code
// behind `versus export` and the window's export), timed over several rounds.
//
// Usage: bench_export [bundle.json] [--rounds N]
// Without a bundle, tests/fixtures/bundles/ecommerce-4-versions.json is used.

#include "benchsupport.h"
#include "bundlejson.h"
#include "chartexporter.h"
#include "exportfolder.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <cstdio>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString bundlePath = QStringLiteral(VERSUS_SOURCE_DIR "/tests/fixtures/bundles/ecommerce-4-versions.json");
    int rounds = 5;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rounds") && i + 1 < args.size())
            rounds = args[++i].toInt();
        else
            bundlePath = args[i];
    }
    Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
    if (!bundle)
        Bench::fail(bundle.error());
    std::printf("bundle: %s (%zu servers)\n", qPrintable(bundlePath), bundle.value().servers.size());

    struct Layout {
        const char *name;
        QSize size;
        double scale;
    };
    const Layout layouts[] = {{"2400x1350 layout, scale 1", QSize(2400, 1350), 1.0},
                              {"1200x675 layout, scale 2 (2400x1350 pixels)", QSize(1200, 675), 2.0}};
    double worstMedian = 0;
    for (const Layout &layout : layouts) {
        ExportOptions options;
        options.size = layout.size;
        options.scale = layout.scale;
        options.formats = {ImageFormat::Png};
        std::vector<double> millis;
        std::vector<double> cpu;
        int files = 0;
        for (int round = 0; round <= rounds; ++round) {
            QTemporaryDir dir;
            QElapsedTimer clock;
            clock.start();
            const double cpuBefore = Bench::cpuMs();
            // Timed with its Figures, as versus export builds one.
            Outcome<QStringList> written = exportAll(Figures(bundle.value()), dir.path(), options);
            const double ms = double(clock.nsecsElapsed()) / 1e6;
            const double cpuUsed = Bench::cpuMs() - cpuBefore;
            if (!written)
                Bench::fail(written.error());
            files = int(written.value().size());
            if (round > 0) {   // the first round loads fonts and plugins; reported separately
                millis.push_back(ms);
                cpu.push_back(cpuUsed);
            }
            else
                std::printf("%s: first export %.0f ms (fonts and image plugins load)\n", layout.name, ms);
        }
        const double med = Bench::median(millis);
        std::printf("%s: %d files per export, median %.0f ms wall, %.0f ms CPU over %d rounds (wall min %.0f, max %.0f)\n",
                    layout.name, files, med, Bench::median(cpu), rounds, *std::min_element(millis.begin(), millis.end()),
                    *std::max_element(millis.begin(), millis.end()));
        worstMedian = std::max(worstMedian, med);
    }
    std::printf("export_all_2400x1350_ms: %.0f\n", worstMedian);
    return 0;
}
