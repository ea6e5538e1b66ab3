// Files and texts written to hurt: JSON nested 100,000 deep (it crashed the parser's recursion)
// given to versus export, to versus run --attributes and to the window's Open (loadBundle), and
// names in a bundle or --title made to break out of an SVG <title>, a Markdown table or a CSV
// cell. A bundle naming one server twice, or none. The real versus binary reads and writes them.

#include "bundlecsv.h"
#include "bundlejson.h"
#include "jsonsupport.h"
#include "markdowntable.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QXmlStreamReader>
#include <QtTest>

#include <sys/stat.h>

namespace {

const QString kScript = QStringLiteral("</title><script>alert(1)</script><title>");

using TestFiles::readFile;
using TestFiles::writeFile;

// `depth` nested arrays inside a bundle's first member, 228 KB at 100,000.
QByteArray deeplyNested(int depth, const QByteArray &before = "{\"schema\":\"versus.results/1\",\"x\":")
{
    return before + QByteArray(depth, '[') + QByteArray(depth, ']') + "}";
}

// Whether `svg` is well-formed XML with no element named script.
QString svgProblem(const QByteArray &svg)
{
    QXmlStreamReader reader(svg);
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement() && reader.name().compare(QLatin1String("script"), Qt::CaseInsensitive) == 0)
            return QStringLiteral("a <script> element at line %1").arg(reader.lineNumber());
    }
    return reader.hasError() ? QStringLiteral("not well-formed: %1").arg(reader.errorString()) : QString();
}

// Every SVG chart in `folder`, each well-formed without a <script>, and holding `expected`.
QString svgChartsProblem(const QString &folder, const QByteArray &expected = {})
{
    const QStringList charts = QDir(folder).entryList({QStringLiteral("*.svg")});
    if (charts.isEmpty())
        return QStringLiteral("no SVG chart in %1").arg(folder);
    for (const QString &chart : charts) {
        const QByteArray svg = readFile(folder + QLatin1Char('/') + chart);
        if (const QString problem = svgProblem(svg); !problem.isEmpty())
            return chart + QStringLiteral(": ") + problem;
        if (!svg.contains(expected))
            return chart + QStringLiteral(": no ") + QString::fromUtf8(expected);
    }
    return {};
}

} // namespace

class HostileFilesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void deepBundleIsRefusedNamingTheFile()
    {
        VersusCli cli;
        const QString bundle = cli.path(QStringLiteral("deep.json"));
        QVERIFY(writeFile(bundle, deeplyNested(100000)));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"),
                                             cli.path(QStringLiteral("out")), QStringLiteral("--format"), QStringLiteral("svg")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1:1:97: JSON nested deeper than 64 levels").arg(bundle)), r.describe());
        // The window's Open and Compare read bundles through the same function.
        const Outcome<ResultsBundle> loaded = loadBundle(bundle);
        QVERIFY(!loaded);
        QVERIFY2(loaded.error().contains(QLatin1String("nested deeper than 64")), qPrintable(loaded.error()));
    }

    void depthUpToTheLimitIsRead()
    {
        QVERIFY(parseJson(QByteArray(64, '[') + QByteArray(64, ']'), QStringLiteral("ok.json")));
        // Brackets inside strings are text, not nesting.
        QVERIFY(parseJson("[\"" + QByteArray(1000, '[') + "\\\"\"]", QStringLiteral("strings.json")));
        const Outcome<Json> deep = parseJson(QByteArray(65, '[') + QByteArray(65, ']'), QStringLiteral("deep.json"));
        QVERIFY(!deep);
        QCOMPARE(deep.error(), QStringLiteral("deep.json:1:65: JSON nested deeper than 64 levels; Versus reads no deeper"));
    }

    void deepAttributesFileIsRefused()
    {
        VersusCli cli;
        const QString attributes = cli.path(QStringLiteral("attributes.json"));
        QVERIFY(writeFile(attributes, deeplyNested(100000, "{\"version\":1,\"x\":")));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("ecommerce"),
                                             QStringLiteral("--events"), QStringLiteral("100"), QStringLiteral("--attributes"),
                                             attributes},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1:1:81: JSON nested deeper than 64 levels").arg(attributes)), r.describe());
        QVERIFY(cli.leftoverServers().empty());
    }

    // A bundle's product and version, and --title, reach the SVG's <title> and <desc>, the
    // report's headings and tables and the CSV: each shows them as text.
    void namesFromABundleStayText()
    {
        VersusCli cli;
        Outcome<Json> root = parseJson(readFile(QStringLiteral(VERSUS_FIXTURES "/bundles/real-ecommerce.json")),
                                       QStringLiteral("real-ecommerce.json"));
        QVERIFY(root);
        root.value()["servers"][1]["product"] = (QStringLiteral("valkey") + kScript).toStdString();
        root.value()["servers"][1]["version"] = std::string("9.1.2 | <img src=x onerror=alert(1)>\n| injected | row |");
        // The workload, the machine and the version reach the report's "How these figures were made".
        root.value()["workload"]["name"] = (QStringLiteral("ecommerce") + kScript).toStdString();
        root.value()["machine"]["cpu_model"] = std::string("EPYC <img src=x onerror=alert(2)>");
        root.value()["versus_version"] = (QStringLiteral("0.1.0") + kScript).toStdString();
        const QString bundle = cli.path(QStringLiteral("hostile.json"));
        QVERIFY(writeFile(bundle, QByteArray::fromStdString(root->dump())));
        const QString folder = cli.path(QStringLiteral("out"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"), folder,
                                             QStringLiteral("--format"), QStringLiteral("svg"), QStringLiteral("--report")},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const QString problem = svgChartsProblem(folder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QString report = QString::fromUtf8(readFile(folder + QStringLiteral("/report.md")));
        QVERIFY(!report.isEmpty());
        QVERIFY2(!report.contains(QLatin1String("<script")) && !report.contains(QLatin1String("<img")), qPrintable(report.left(3000)));
        QVERIFY2(!report.contains(QLatin1String("\n| injected")), qPrintable(report.left(3000)));
        // Every table row keeps its column count: the header's pipes, unescaped, once per cell.
        for (const QString &line : report.split(QLatin1Char('\n'))) {
            if (line.contains(QLatin1String("9.1.2")) && line.startsWith(QLatin1Char('|')))
                QVERIFY2(line.contains(QLatin1String("9.1.2 \\| &lt;img")), qPrintable(line));
        }
    }

    // A bundle naming one server twice (the second's repeats went to the first, and the first
    // was charted twice) or naming none: `versus export` refuses it naming the file and writes
    // nothing (before: exit 0 and charts). A server named twice is refused by loadBundle, so by
    // the window's Open and Compare too.
    void bundleWithAServerTwiceOrNoneIsRefused_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        const QString hashTtl = QStringLiteral("hash-ttl-3-versions.json");
        QTest::newRow("a server twice") << hashTtl << QStringLiteral("server twice")
                                        << QStringLiteral("at /servers/3: server \"valkey-8.0.1\" is named twice (also at index 0)");
        QTest::newRow("a sweep point's server twice")
            << QStringLiteral("real-hash-ttl-sweep.json") << QStringLiteral("point's server twice")
            << QStringLiteral("at /sweep/points/1/servers/2: server \"valkey-8.0.1\" is named twice (also at index 0)");
        QTest::newRow("an empty list of servers") << hashTtl << QStringLiteral("empty list")
                                                  << QStringLiteral("the bundle holds no server: there is nothing to export");
        QTest::newRow("no servers member") << hashTtl << QStringLiteral("no member")
                                           << QStringLiteral("the bundle holds no server: there is nothing to export");
    }
    void bundleWithAServerTwiceOrNoneIsRefused()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, change);
        QFETCH(QString, message);
        Outcome<Json> root = parseJson(readFile(QStringLiteral(VERSUS_FIXTURES "/bundles/") + fixture), fixture);
        QVERIFY(root);
        Json &bundle = root.value();
        if (change == QLatin1String("server twice")) {
            bundle["servers"].push_back(bundle["servers"][0]);
        } else if (change == QLatin1String("point's server twice")) {
            bundle["sweep"]["points"][1]["servers"].push_back(bundle["sweep"]["points"][1]["servers"][0]);
        } else {
            bundle.erase("runs");
            if (change == QLatin1String("empty list"))
                bundle["servers"] = Json::array();
            else
                bundle.erase("servers");
        }
        VersusCli cli;
        const QString path = cli.path(QStringLiteral("hostile.json"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(bundle.dump())));
        const QString folder = cli.path(QStringLiteral("out"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), path, QStringLiteral("--export-dir"), folder,
                                             QStringLiteral("--format"), QStringLiteral("svg")},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus export: %1: %2\n").arg(path, message));
        QVERIFY(QDir(folder).isEmpty());
        if (change.endsWith(QLatin1String("twice"))) {
            const Outcome<ResultsBundle> loaded = loadBundle(path);
            QVERIFY(!loaded);
            QCOMPARE(loaded.error(), QStringLiteral("%1: %2").arg(path, message));
        }
    }

    void titleOptionStaysText()
    {
        VersusCli cli;
        const QString folder = cli.path(QStringLiteral("out"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QStringLiteral(VERSUS_FIXTURES "/bundles/real-ecommerce.json"),
                                             QStringLiteral("--export-dir"), folder, QStringLiteral("--format"), QStringLiteral("svg"),
                                             QStringLiteral("--title"), QStringLiteral("Memory") + kScript + QStringLiteral("\x01")},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const QString problem = svgChartsProblem(folder, "Memory&lt;/title&gt;&lt;script&gt;");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void csvCellsNeverStartAFormula_data()
    {
        QTest::addColumn<QString>("cell");
        QTest::addColumn<QString>("written");
        // A neutralised cell is quoted: it no longer reads back as the text given.
        QTest::newRow("=") << QStringLiteral("=1+1") << QStringLiteral("\"'=1+1\"");
        QTest::newRow("tab then =") << QStringLiteral("\t=cmd") << QStringLiteral("\"'\t=cmd\"");
        QTest::newRow("CR then =") << QStringLiteral("\r=cmd") << QStringLiteral("\"'\r=cmd\"");
        QTest::newRow("@") << QStringLiteral("@SUM(A1)") << QStringLiteral("\"'@SUM(A1)\"");
        QTest::newRow("plain") << QStringLiteral("valkey-9.1.2") << QStringLiteral("valkey-9.1.2");
    }
    void csvCellsNeverStartAFormula()
    {
        QFETCH(QString, cell);
        QFETCH(QString, written);
        QCOMPARE(csvField(cell), written);
    }

    // Inputs that never end or are far too large are refused by what they are, before a byte is
    // read: /dev/zero, a FIFO no one writes (it hung the open), a 1 GB file (it was read whole).
    void unboundedInputsAreRefusedBeforeReading_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("device") << QStringLiteral("device")
                                << QStringLiteral("versus export: %1: not a regular file (a device); a results bundle is read "
                                                  "only from a regular file\n");
        QTest::newRow("fifo") << QStringLiteral("fifo")
                              << QStringLiteral("versus export: %1: not a regular file (a FIFO); a results bundle is read only "
                                                "from a regular file\n");
        QTest::newRow("1 GB") << QStringLiteral("large")
                              << QStringLiteral("versus export: %1: 1073741824 bytes, more than the 67108864 (64 MiB) a "
                                                "results bundle may have\n");
    }
    void unboundedInputsAreRefusedBeforeReading()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        VersusCli cli;
        QString input = QStringLiteral("/dev/zero");
        if (kind == QLatin1String("fifo")) {
            input = cli.path(QStringLiteral("pipe.json"));
            QVERIFY(::mkfifo(QFile::encodeName(input).constData(), 0600) == 0);
        } else if (kind == QLatin1String("large")) {
            input = cli.path(QStringLiteral("large.json"));
            QFile file(input);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.resize(qint64(1) << 30));   // sparse: no disk used
        }
        const VersusCli::Result r = cli.run({QStringLiteral("export"), input, QStringLiteral("--export-dir"),
                                             cli.path(QStringLiteral("out"))}, 30000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, message.arg(input));
        QVERIFY(!QFileInfo::exists(cli.path(QStringLiteral("out"))));
    }

    // A manifest in the server cache that is a FIFO hung `versus servers`; now it is a problem
    // of that entry, named in the listing.
    void fifoManifestDoesNotHangTheListing()
    {
        VersusCli cli;
        const QString cache = cli.path(QStringLiteral("cache"));
        const QString folder = cache + QStringLiteral("/valkey-8.0.1");
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(::chmod(QFile::encodeName(cache).constData(), 0700) == 0);
        QVERIFY(::chmod(QFile::encodeName(folder).constData(), 0700) == 0);
        QVERIFY(::mkfifo(QFile::encodeName(folder + QStringLiteral("/manifest.json")).constData(), 0600) == 0);
        cli.environment().insert(QStringLiteral("VERSUS_SERVER_CACHE"), cache);
        cli.environment().insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        const VersusCli::Result r = cli.run({QStringLiteral("servers")}, 30000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("unreadable manifest %1/manifest.json: not a regular file (a FIFO); a manifest is "
                                               "read only from a regular file").arg(folder)),
                 r.describe());
    }

    void markdownCellsStayCells()
    {
        QCOMPARE(markdownRow({QStringLiteral("a|b"), QStringLiteral("<b>x</b>\nnext")}),
                 QStringLiteral("| a\\|b | &lt;b&gt;x&lt;/b&gt; next |\n"));
        QCOMPARE(markdownRow({markdownText(QStringLiteral("v|1 *bold*"))}), QStringLiteral("| v\\|1 \\*bold\\* |\n"));
    }
};

QTEST_GUILESS_MAIN(HostileFilesTest)
#include "tst_hostilefiles.moc"
