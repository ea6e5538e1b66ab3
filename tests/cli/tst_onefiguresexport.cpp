// `versus export` of a bundle computes its figures once: one Figures, read by every chart, the
// Why chart, results.csv, results.json and report.md, and each of its tables computed once.
// Run in-process (the subcommand's body), so the counts are this process's own.

#include "commands.h"
#include "figures.h"
#include "figureviews.h"
#include "fixturebundle.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

class TestOneFiguresExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exportBuildsOneFigures_data()
    {
        QTest::addColumn<QString>("bundle");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("views");        // -1: every view the bundle has
        QTest::addColumn<int>("formats");
        QTest::addColumn<int>("otherFiles");   // results.csv, results.json, report.md
        QTest::newRow("ecommerce, every chart, report") << QStringLiteral("ecommerce-4-versions.json")
                                                        << QStringList{QStringLiteral("--report")} << -1 << 1 << 3;
        QTest::newRow("hash-ttl, svg and png") << QStringLiteral("hash-ttl-3-versions.json")
                                               << QStringList{QStringLiteral("--format"), QStringLiteral("png,svg")} << -1 << 2 << 2;
        QTest::newRow("one chart") << QStringLiteral("ecommerce-4-versions.json")
                                   << QStringList{QStringLiteral("--chart"), QStringLiteral("usec-per-command")} << 1 << 1 << 2;
    }

    void exportBuildsOneFigures()
    {
        QFETCH(QString, bundle);
        QFETCH(QStringList, options);
        QFETCH(int, views);
        QFETCH(int, formats);
        QFETCH(int, otherFiles);
        if (views < 0)
            views = int(chartKindsOf(Figures(fixtureBundle(bundle))).size());
        const int files = views * formats + otherFiles;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString exportDir = dir.filePath(QStringLiteral("charts"));
        const long long figuresBefore = Figures::constructions();   // after the expectation's own
        const long long tablesBefore = Figures::tableComputations();
        const int code = runExportCommand(QStringList{QStringLiteral("versus"), QStringLiteral(VERSUS_FIXTURES "/bundles/") + bundle,
                                                      QStringLiteral("--export-dir"), exportDir}
                                          + options);
        QCOMPARE(code, 0);
        QCOMPARE(Figures::constructions() - figuresBefore, 1LL);
        QCOMPARE(int(QDir(exportDir).entryList(QDir::Files).size()), files);
        // Each table once, however many charts and files read it: no more tables than the
        // Figures has (memory, its MEMORY USAGE and keys, three command tables, per event, four
        // client tables, three of the server's time in all, reference ratios, cluster overhead,
        // three server-side percentiles, the time parts and commands per loop iteration).
        qInfo("%lld tables computed", Figures::tableComputations() - tablesBefore);
        QVERIFY2(Figures::tableComputations() - tablesBefore <= 22,
                 qPrintable(QString::number(Figures::tableComputations() - tablesBefore)));
    }
};

QTEST_MAIN(TestOneFiguresExport)
#include "tst_onefiguresexport.moc"
