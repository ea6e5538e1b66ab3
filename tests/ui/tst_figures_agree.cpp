// Every view shows the figures layer's numbers and states, and none of its own: for bundles of
// real runs (complete with repeats, hash-ttl with two refused patterns, cancelled, a failed
// server, a server whose writes were rejected, an old bundle of the removed speed guard), the
// Markdown that `versus run` prints and Copy ▸ Markdown copies, the CSV, the bundle's derived
// JSON, the chart data and the results table each give the same value and state for every
// (server, category, figure).
// The bundles exercise the rules a view would get wrong if it computed a figure itself: which
// repeats count, totals over different work, partial figures, errors.

#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlecsv.h"
#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "chartdata.h"
#include "jsonsupport.h"
#include "presentation.h"
#include "resultstablemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

namespace {

// Markdown table rows: label -> cells, for the table under `heading`.
std::map<QString, QStringList> markdownRows(const QString &markdown, const QString &heading)
{
    std::map<QString, QStringList> rows;
    const int start = markdown.indexOf(heading);
    if (start < 0)
        return rows;
    const QStringList lines = markdown.mid(start).split(QLatin1Char('\n'));
    for (int i = 4; i < lines.size() && lines[i].startsWith(QLatin1Char('|')); ++i) {
        QStringList cells = lines[i].split(QLatin1Char('|'));
        cells = cells.mid(1, cells.size() - 2);
        for (QString &cell : cells)
            cell = cell.trimmed();
        rows[cells.takeFirst()] = cells;
    }
    return rows;
}

// CSV rows keyed "server,metric,category" -> (value, state).
std::map<QString, std::pair<QString, QString>> csvRows(const QString &csv)
{
    std::map<QString, std::pair<QString, QString>> rows;
    for (const QString &line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1)) {
        const QStringList cells = line.split(QLatin1Char(','));
        rows[cells.mid(0, 3).join(QLatin1Char(','))] = {cells[3], cells[7]};
    }
    return rows;
}

QString markdownLabel(const FigureCategory &category, int &scopes)
{
    if (category.id == QLatin1String("all") && !category.scope.isEmpty())
        return category.label + QStringLiteral(" (%1)").arg(++scopes);
    return category.label;
}

} // namespace

class TestFiguresAgree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyViewShowsTheSameFigures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("grouped");
        for (const char *name : {"real-ecommerce.json", "real-hash-ttl.json", "real-cancelled.json", "real-failed.json",
                                 "real-rejected-writes.json", "real-disturbed.json"})
            QTest::newRow(name) << QString::fromLatin1(name) << false;
        // As the ecommerce workload describes itself today: its time table leads with "All writes".
        QTest::newRow("real-ecommerce.json, writes grouped") << QStringLiteral("real-ecommerce.json") << true;
    }

    void everyViewShowsTheSameFigures()
    {
        QFETCH(QString, name);
        QFETCH(bool, grouped);
        ResultsBundle bundle = fixtureBundle(name);
        if (grouped) {
            bundle.workload.commandGroups = {{QStringLiteral("writes"),
                                              {QStringLiteral("INCRBY"), QStringLiteral("SET"), QStringLiteral("ZADD"),
                                               QStringLiteral("HINCRBY"), QStringLiteral("PFADD"), QStringLiteral("SADD"),
                                               QStringLiteral("EXPIRE"), QStringLiteral("ZREMRANGEBYSCORE")}}};
            QCOMPARE(Figures(bundle).commandTime().categories.front().label, QStringLiteral("All writes"));
        }
        const Figures figures(bundle);
        checkMarkdown(figures);
        checkCsv(figures);
        checkDerivedJson(figures);
        checkCharts(bundle, figures);
        checkTable(bundle, figures);
    }

    // The fixtures are what they say: each shows the state it is there for.
    void fixturesShowWhatTheyAreFor()
    {
        const Figures hashTtl(fixtureBundle(QStringLiteral("real-hash-ttl.json")));
        const FigureTable memory = hashTtl.memory();
        QCOMPARE(memory.categoryIndex(QStringLiteral("all")), -1);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-8.0.1")).state, FigureState::Unsupported);
        QCOMPARE(hashTtl.perEvent().categories.front().over, QStringList{QStringLiteral("set-ex")});

        QCOMPARE(Figures(fixtureBundle(QStringLiteral("real-cancelled.json"))).memory().at(0, QStringLiteral("valkey-9.1.2")).state,
                 FigureState::Incomplete);
        const Figures failed(fixtureBundle(QStringLiteral("real-failed.json")));
        QStringList verdicts;
        for (const QString &id : failed.allServerIds())
            verdicts << failed.summary(id).statusText();
        QVERIFY2(verdicts.filter(QStringLiteral("failed")).size() == 1, qPrintable(verdicts.join('\n')));

        const Figures rejected(fixtureBundle(QStringLiteral("real-rejected-writes.json")));
        QStringList rejecting;
        for (const QString &id : rejected.allServerIds()) {
            if (rejected.summary(id).verdict == ServerVerdict::RejectedWrites)
                rejecting << id;
        }
        QCOMPARE(rejecting.size(), 1);
        QVERIFY(rejected.dataProblems().front().startsWith(rejecting.front() + QStringLiteral(" rejected writes")));
        QCOMPARE(rejected.summary(QStringLiteral("valkey-9.1.2")).verdict, ServerVerdict::Completed);

        // A bundle of the removed speed guard: its slow passes mark nothing any more.
        const Figures slow(fixtureBundle(QStringLiteral("real-disturbed.json")));
        QCOMPARE(slow.commandTime().at(0, QStringLiteral("valkey-9.1.2")).state, FigureState::Measured);
        QCOMPARE(slow.memory().at(0, QStringLiteral("valkey-9.1.2")).state, FigureState::Measured);
    }

private:
    void checkMarkdown(const Figures &figures)
    {
        const QString markdown = bundleToMarkdown(figures);
        QStringList ids;
        for (const QString &id : figures.serverIds())
            if (figures.summary(id).hasFigures())
                ids << id;
        // Footnote numbers run on through one section's rows.
        auto compareTable = [&](const FigureTable &table, const QString &heading, const QString &renamed, int &scopes) {
            const std::map<QString, QStringList> rows = markdownRows(markdown, heading);
            for (size_t c = 0; c < table.categories.size(); ++c) {
                FigureCategory category = table.categories[c];
                if (!renamed.isEmpty())
                    category.label = renamed;
                const QString label = markdownLabel(category, scopes);
                QVERIFY2(rows.count(label), qPrintable(heading + QStringLiteral(": no row ") + label));
                for (int s = 0; s < ids.size(); ++s) {
                    const Figure &figure = table.at(int(c), ids[s]);
                    QCOMPARE(rows.at(label).at(s), markdownCell(figure));
                    if (figure.hasValue())
                        QVERIFY(rows.at(label).at(s).startsWith(formatFigure(figure.value)));
                }
            }
        };
        int memoryScopes = 0, timeScopes = 0;
        compareTable(figures.memory(), QStringLiteral("### Memory per stored attribute"), QString(), memoryScopes);
        compareTable(figures.commandTime(), QStringLiteral("### Time inside the commands"), QString(), timeScopes);
        compareTable(figures.perEvent(), QStringLiteral("### Time inside the commands"), QStringLiteral("µs per event"), timeScopes);
    }

    void checkCsv(const Figures &figures)
    {
        const auto rows = csvRows(bundleToCsv(figures));
        auto compareTable = [&](const FigureTable &table, const char *metric) {
            for (const QString &id : figures.serverIds()) {
                if (!figures.summary(id).hasFigures())
                    continue;
                for (size_t c = 0; c < table.categories.size(); ++c) {
                    const Figure &figure = table.at(int(c), id);
                    const QString category = table.categories[c].id == QLatin1String("all") ? QStringLiteral("overall") : table.categories[c].id;
                    const QString key = QStringLiteral("%1,%2,%3").arg(id, QLatin1String(metric), category);
                    if (figure.state == FigureState::Absent) {
                        QVERIFY2(!rows.count(key), qPrintable(key));
                        continue;
                    }
                    QVERIFY2(rows.count(key), qPrintable(key));
                    QCOMPARE(rows.at(key).second, figureStateName(figure.state));
                    if (figure.hasValue())
                        QCOMPARE(rows.at(key).first.toDouble(), QString::number(figure.value, 'g', 10).toDouble());
                    else
                        QCOMPARE(rows.at(key).first, QString());
                }
            }
        };
        compareTable(figures.memory(), "bytes_per_key");
        compareTable(figures.allCommandTimes(), "usec_per_call");
        compareTable(figures.perEvent(), "usec_per_event");
        compareTable(figures.client(Measure::EventsPerSecond), "events_per_second");
    }

    void checkDerivedJson(const Figures &figures)
    {
        const Json root = Json::parse(bundleToJson(figures.bundle()).toStdString());
        const FigureTable memory = figures.memory();
        for (const QString &id : figures.serverIds()) {
            if (!figures.summary(id).hasFigures()) {
                QVERIFY(!root["memory"].contains(id.toStdString()));
                continue;
            }
            const Json &server = root["memory"][id.toStdString()];
            for (size_t c = 0; c < memory.categories.size(); ++c) {
                const Figure &figure = memory.at(int(c), id);
                const bool overall = memory.categories[c].id == QLatin1String("all");
                const Json &value = overall ? server["bytes_per_key"]["overall"] : server["bytes_per_key"]["by_type"][memory.categories[c].id.toStdString()];
                const Json &state = overall ? server["state"]["overall"] : server["state"]["by_type"][memory.categories[c].id.toStdString()];
                if (figure.state == FigureState::Absent)
                    continue;
                QCOMPARE(QString::fromStdString(state.get<std::string>()), figureStateName(figure.state));
                if (figure.hasValue())
                    QCOMPARE(value.get<double>(), figure.value);
                else
                    QVERIFY(value.is_null());
            }
        }
    }

    void checkCharts(const ResultsBundle &bundle, const Figures &figures)
    {
        for (ChartKind kind : everyBundleChartKinds()) {
            const ChartData data = buildChartData(bundle, kind);
            const FigureTable table = chartTable(figures, kind);
            QCOMPARE(size_t(data.categories.size()), table.categories.size());
            for (const ChartSeries &series : data.series) {
                for (size_t c = 0; c < table.categories.size(); ++c) {
                    const Figure &figure = table.at(int(c), series.serverId);
                    const ChartBar &bar = series.bars[c];
                    QCOMPARE(bar.state, figure.state);
                    if (!figure.hasValue()) {
                        QVERIFY(bar.unsupported || bar.missing);
                        continue;
                    }
                    QCOMPARE(bar.value, figure.value);
                    QVERIFY2(bar.label.startsWith(formatFigure(figure.value)), qPrintable(bar.label));
                    QCOMPARE(bar.change.has_value(), figure.change.has_value());
                    if (figure.change)
                        QVERIFY2(bar.label.contains(formatPercentChange(*figure.change)), qPrintable(bar.label));
                }
            }
        }
    }

    void checkTable(const ResultsBundle &bundle, const Figures &figures)
    {
        ResultsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFigures(Figures(bundle));   // figures of its own, from the bundle
        const FigureTable memory = figures.memory();
        const FigureTable times = figures.commandTime();
        const QStringList ids = figures.serverIds();
        QCOMPARE(model.rowCount(), ids.size());
        for (int row = 0; row < ids.size(); ++row) {
            QCOMPARE(model.data(model.index(row, ResultsTableModel::StatusColumn)).toString(), figures.summary(ids[row]).statusText());
            for (const auto &[column, table] : {std::pair{ResultsTableModel::BytesPerKeyColumn, &memory},
                                                {ResultsTableModel::UsecPerCommandColumn, &times}}) {
                // The category the chart's headline reads: a total, or the leading group ("All writes",
                // which the table once left empty for every ecommerce result); without either, the
                // reference type's own (hash-ttl: set-ex's memory, and the time of SET, the one
                // command only set-ex sends), which the answer's ratios are of.
                const QStringList referenceCommands = figures.commandsOnlyOf(figures.referenceType());
                const int reference = table == &memory ? memory.categoryIndex(figures.referenceType())
                                      : referenceCommands.size() == 1 ? times.categoryIndex(referenceCommands.front())
                                                                      : -1;
                const Figure &figure = table->leadsWithHeadlineCategory() ? table->at(0, ids[row])
                                       : reference >= 0                    ? table->at(reference, ids[row])
                                                                           : Figure();
                if (column == ResultsTableModel::UsecPerCommandColumn && figures.headline(*table) && ids[row] == figures.headline(*table)->toId)
                    QVERIFY2(figure.hasValue(), qPrintable(ids[row]));
                const QString shown = model.data(model.index(row, column)).toString();
                if (figure.hasValue()) {
                    QVERIFY2(shown.startsWith(formatFigure(figure.value)), qPrintable(shown));
                    QCOMPARE(model.data(model.index(row, column), ResultsTableModel::SortRole).toDouble(), figure.value);
                } else {
                    QVERIFY2(!shown.contains(QRegularExpression(QStringLiteral("\\d"))), qPrintable(shown));
                }
            }
        }
    }
};

QTEST_MAIN(TestFiguresAgree)
#include "tst_figures_agree.moc"
