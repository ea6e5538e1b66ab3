#include "sweepchartdata.h"

#include "chartdata.h"
#include "palette.h"
#include "presentation.h"
#include "sweepbundle.h"

#include <algorithm>
#include <cmath>

namespace {

// Values that span a factor of 4 or more, all above zero, stand on a log scale: 16, 64, 256 at
// even steps.
bool wantsLogScale(const std::vector<double> &numbers)
{
    if (numbers.empty())
        return false;
    const auto [low, high] = std::minmax_element(numbers.begin(), numbers.end());
    return *low > 0 && *high / *low >= 4.0;
}

QString versionOf(const ResultsBundle &bundle, const QString &serverId)
{
    const ServerRun *run = bundle.server(serverId);
    return run ? serverVersionText(*run) : serverId;
}

// Why a line is not drawn: what its figures say.
QString whyNoLine(const SweepLine &line)
{
    for (const Figure &figure : line.points) {
        if (figure.state == FigureState::Unsupported)
            return QStringLiteral("unsupported");
        if (figure.state == FigureState::NotRun)
            return figure.note;
        if (figure.state == FigureState::Failed)
            return QStringLiteral("failed");
    }
    return QStringLiteral("no figure");
}

// "No line for hsetex, hset-hexpire on Valkey 8.0.1, Valkey 8.1.1 (unsupported).": servers that
// miss the same lines for the same reason share one note.
QStringList missingLineNotes(const std::vector<const SweepLine *> &missing)
{
    std::vector<std::pair<QString, QStringList>> byServer;   // "Valkey 8.0.1\n(unsupported)" -> categories
    for (const SweepLine *line : missing) {
        const QString key = line->serverName + QLatin1Char('\n') + whyNoLine(*line);
        auto found = std::find_if(byServer.begin(), byServer.end(), [&key](const auto &entry) { return entry.first == key; });
        if (found == byServer.end())
            byServer.push_back({key, {line->categoryLabel}});
        else
            found->second << line->categoryLabel;
    }
    std::vector<std::pair<QString, QStringList>> byLines;   // "hsetex, hset-hexpire\nunsupported" -> servers
    for (const auto &[key, categories] : byServer) {
        const QString lines = categories.join(QStringLiteral(", ")) + QLatin1Char('\n') + key.section(QLatin1Char('\n'), 1);
        auto found = std::find_if(byLines.begin(), byLines.end(), [&lines](const auto &entry) { return entry.first == lines; });
        if (found == byLines.end())
            byLines.push_back({lines, {key.section(QLatin1Char('\n'), 0, 0)}});
        else
            found->second << key.section(QLatin1Char('\n'), 0, 0);
    }
    QStringList notes;
    for (const auto &[lines, servers] : byLines)
        notes << QStringLiteral("No line for %1 on %2 (%3).")
                     .arg(lines.section(QLatin1Char('\n'), 0, 0), servers.join(QStringLiteral(", ")), lines.section(QLatin1Char('\n'), 1));
    return notes;
}

} // namespace

double SweepChartData::largestValue() const
{
    double largest = 0;
    for (const SweepChartLine &line : lines)
        for (const std::optional<double> &value : line.values)
            if (value)
                largest = std::max(largest, *value);
    return largest;
}

QString sweepChartFileStem(SweepChartKind kind)
{
    return sweepView(kind).stem;
}

SweepChartData buildSweepChartData(const Figures &figures, SweepChartKind kind)
{
    SweepChartData data;
    data.kind = kind;
    const ResultsBundle &bundle = figures.bundle();
    const SweepView &view = sweepView(kind);
    const SweepTable table = view.table(figures);
    data.parameter = table.parameter;
    data.xLabels = table.values;
    data.logarithmic = wantsLogScale(table.numbers);
    for (double number : table.numbers)
        data.x.push_back(data.logarithmic ? std::log2(number) : number);
    data.xTitle = data.logarithmic ? QStringLiteral("%1 (log scale)").arg(table.parameter) : table.parameter;
    data.yTitle = view.valueTitle(table);
    const std::map<QString, QColor> colors = serverColors(bundle);
    // "hsetex · 9.1.2" while every server is of one product; "hsetex · Redis 8.0.2" beside Valkey.
    const auto productOf = [&bundle](const QString &id) {
        const ServerRun *run = bundle.server(id);
        return run ? run->product : QString();
    };
    bool mixed = false;
    for (const SweepLine &line : table.lines)
        mixed = mixed || productOf(line.serverId) != productOf(table.lines.front().serverId);
    QStringList categories;
    std::vector<const SweepLine *> missing;
    for (const SweepLine &line : table.lines) {
        if (!categories.contains(line.categoryId))
            categories << line.categoryId;
        SweepChartLine drawn;
        drawn.serverId = line.serverId;
        drawn.label = QStringLiteral("%1 · %2").arg(line.categoryLabel, mixed ? line.serverName : versionOf(bundle, line.serverId));
        drawn.color = colors.count(line.serverId) ? colors.at(line.serverId) : QColor(Qt::gray);
        drawn.style = int(categories.indexOf(line.categoryId));
        bool any = false;
        for (const Figure &figure : line.points) {
            // A point the run did not finish is not drawn: its partial figure would read as a result.
            const bool shown = figure.hasValue() && figure.state != FigureState::Incomplete;
            drawn.values.push_back(shown ? std::optional<double>(figure.value) : std::nullopt);
            any = any || shown;
        }
        if (any)
            data.lines.push_back(drawn);
        else
            missing.push_back(&line);
    }
    data.footnotes = missingLineNotes(missing);
    if (const QStringList unfinished = table.unfinishedValues(); !unfinished.isEmpty())
        data.footnotes << QStringLiteral("%1=%2 not drawn: the run stopped before it finished")
                              .arg(table.parameter, unfinished.join(QStringLiteral(", ")));
    return data;
}

QString defaultSweepTitle(const Figures &figures, SweepChartKind kind)
{
    return sweepView(kind).title(figures.bundle());
}

QString defaultSweepSubtitle(const Figures &figures, SweepChartKind kind)
{
    const SweepTable table = sweepView(kind).table(figures);
    // Servers that allocate differently compare builds as well as versions: said after the line.
    const QString caveat = sweepBuildCaveat(figures.bundle(), figures.options());
    // A time sweep's finding is how a version's gap moves along it, where the run resolves it.
    if (!table.gapChanges.isEmpty())
        return table.gapChanges.join(QStringLiteral("; ")) + (caveat.isEmpty() ? QString() : QStringLiteral(". ") + caveat);
    if (!table.headline)
        return {};
    const SweepLine *line = &table.lines[table.headline->line];
    const bool ratio = kind == SweepChartKind::Ratio;
    const auto text = [ratio](double value) { return ratio ? formatMultiple(value) : formatFigure(value); };
    const bool time = isTimeMeasure(table.measure);
    // The headline's points are final ones: a cancelled sweep's last point is partial.
    const size_t first = table.headline->first;
    const size_t last = table.headline->last;
    return QStringLiteral("%1 on %2: %3 → %4%5 from %6 %7 to %8%9")
        .arg(line->categoryLabel, line->serverName, text(line->points[first].value), text(line->points[last].value),
             ratio                  ? QStringLiteral(" %1").arg(table.referenceType)
             : table.clusterOverhead ? QStringLiteral(" bytes per key beyond standalone")
             : time                  ? QStringLiteral(" ") + sweepView(kind).valueTitle(table)
                                     : QStringLiteral(" bytes per key"),
             table.parameter,
             table.values[int(first)], table.values[int(last)], caveat.isEmpty() ? QString() : QStringLiteral(". ") + caveat);
}

QString defaultSweepFootnote(const Figures &figures)
{
    // The workload as swept: the parameter with every value ("value-size=16/64/256").
    return QStringLiteral("Each value is a run of its own on freshly started servers. ")
        + sweepProvenanceParts(figures.bundle(), figures.options()).join(QStringLiteral(" · "));
}
