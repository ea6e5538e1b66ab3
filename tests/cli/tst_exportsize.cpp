// `versus export --size` too small for the category names: the chart is still written, and stderr
// names the option that set the size and the smallest size at which the names fit (at 400x300
// every name of the memory chart is cut to "…").

#include "fixturebundle.h"
#include "versuscli.h"

#include <QImage>
#include <QRegularExpression>
#include <QtTest>

class TestExportSize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cutNamesNameTheOptionAndTheSizeTheyFitAt()
    {
        VersusCli cli;
        const QString bundle = QStringLiteral(VERSUS_FIXTURES "/bundles/real-ecommerce.json");
        const QString small = cli.path(QStringLiteral("small"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"), small, QStringLiteral("--size"),
                                             QStringLiteral("400x300"), QStringLiteral("--chart"), QStringLiteral("memory-per-attribute")},
                                            60000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(QImage(small + QStringLiteral("/memory-per-attribute.png")).size(), QSize(400, 300));
        const QRegularExpression warning(QStringLiteral("versus: warning: memory-per-attribute at 400x300: category names cut short, "
                                                        "the chart is too narrow for \"[^\"]+\"; they fit from (\\d+)x(\\d+) "
                                                        "\\(--size 400x300 cuts them; or --preset blog or slide\\)\\n"));
        const QRegularExpressionMatch said = warning.match(r.err);
        QVERIFY2(said.hasMatch(), r.describe());

        // At the size it names, the names fit: no such warning.
        const QString fits = QStringLiteral("%1x%2").arg(said.captured(1), said.captured(2));
        const VersusCli::Result larger = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"), cli.path(QStringLiteral("fits")),
                                                  QStringLiteral("--size"), fits, QStringLiteral("--chart"), QStringLiteral("memory-per-attribute")},
                                                 60000);
        QVERIFY2(larger.finished && larger.exitCode == 0, larger.describe());
        QVERIFY2(!larger.err.contains(QLatin1String("category names cut short")), larger.describe());
    }
};

QTEST_MAIN(TestExportSize)
#include "tst_exportsize.moc"
