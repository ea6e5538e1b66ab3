#include "chartdata.h"

#include "figuremarks.h"
#include "palette.h"
#include "presentation.h"
#include "provenance.h"
#include <QLocale>
#include <algorithm>

namespace {

// A category as the chart names it: a type's underscores become spaces; totals and commands
// keep their names.
QString shownCategoryName(const FigureView &view, const FigureCategory &category)
{
    if (category.isOverall() || view.categoriesAreCommands)
        return category.label;
    return QString(category.label).replace(QLatin1Char('_'), QLatin1Char(' '));
}

ChartBar barOf(const Figure &figure, Measure measure, const QString &serverName)
{
    ChartBar bar;
    bar.state = figure.state;
    bar.note = figure.note;
    bar.growing = figure.growing;
    switch (figure.state) {
    case FigureState::Unsupported:
        bar.unsupported = true;
        // No bar to carry the colour: the marker names whose it is.
        bar.label = QStringLiteral("unsupported (%1)").arg(serverName);
        return bar;
    case FigureState::NotRun:
        bar.unsupported = true;
        bar.label = QStringLiteral("%1 (%2)").arg(figure.note, serverName);
        return bar;
    case FigureState::Failed:
        bar.missing = true;
        bar.label = QStringLiteral("failed (%1)").arg(serverName);
        return bar;
    case FigureState::Absent:
        bar.missing = true;
        bar.label = QStringLiteral("n/a");
        return bar;
    case FigureState::Pending:
        bar.missing = true;
        bar.label = QStringLiteral("pending");
        bar.note = QStringLiteral("not measured yet");
        return bar;
    default:
        break;
    }
    bar.value = figure.value;
    bar.min = figure.spread.min;
    bar.max = figure.spread.max;
    bar.hasRange = figure.spread.n > 1 && bar.max > bar.min;
    bar.repeats = figure.spread.n;
    bar.change = figure.change;
    bar.meaning = changeMeaning(measure, figure);
    // A server-side percentile is its bucket, "≤ 16 µs", not a number.
    bar.label = withBottleneckMark(Figures::isServerTail(measure) ? Figures::serverTailText(figure) : formatFigure(bar.value), figure);
    if (figure.change)
        bar.label += QStringLiteral("  ") + withUnresolvedMark(formatPercentChange(*figure.change), figure);
    // A provisional bar is not marked: it grows, and a live chart's title says provisional.
    if (figure.state != FigureState::Provisional)
        bar.label = withFigureMark(bar.label, figure.state);
    return bar;
}

// A server's failure in one sentence: without its own id in front and without the lead-in
// to the log lines that follow it (those stay in the table and the log).
QString failureSentence(const ServerSummary &summary, const QString &note)
{
    const bool failed = summary.verdict == ServerVerdict::Failed || summary.verdict == ServerVerdict::FailedLater;
    QString text = (failed ? summary.error : note).section(QLatin1Char('\n'), 0, 0).trimmed();
    // The sentence follows the server's name: an error that names it again, as a connection's
    // does at each level ("127.0.0.1:6390: 127.0.0.1:6390 did not answer … (127.0.0.1:6390:
    // INFO: …)"), names it once.
    text.replace(summary.id + QStringLiteral(": "), QString());
    if (text.startsWith(summary.id + QLatin1Char(' ')))
        text = text.mid(summary.id.size() + 1);
    if (text.endsWith(QLatin1Char(':')) && text.lastIndexOf(QStringLiteral(". ")) > 0)
        text = text.left(text.lastIndexOf(QStringLiteral(". ")));
    return text;
}

// What "†" means when a bar carries it, with the reason of the headline's figure, or else of the
// first marked bar: "… Valkey 9.1.2, All writes: not resolvable with 2 repeats: …".
QString unresolvedNoteOf(const FigureTable &table, const Figures &figures)
{
    QString example;
    if (const std::optional<Headline> headline = figures.headline(table); headline && !headline->unresolved.isEmpty()
        && !unresolvedMark(table.at(0, headline->toId)).isEmpty())
        example = QStringLiteral("%1, %2: %3.").arg(figures.summary(headline->toId).name, headline->categoryLabel, headline->unresolved);
    for (size_t c = 0; c < table.categories.size() && example.isEmpty(); ++c) {
        for (const QString &id : table.servers) {
            const Figure &figure = table.at(int(c), id);
            if (!unresolvedMark(figure).isEmpty()) {
                example = QStringLiteral("%1, %2: %3.").arg(figures.summary(id).name, table.categories[c].label, figure.unresolved);
                break;
            }
        }
    }
    return example.isEmpty() ? QString() : unresolvedMarkNote(example);
}

// What the marks, the partial totals and the missing servers of a chart mean, one line each.
QStringList footnotesOf(const FigureTable &table, const Figures &figures)
{
    QStringList notes;
    for (const FigureCategory &category : table.categories) {
        if (!category.scope.isEmpty() && category.isOverall())
            notes << QStringLiteral("%1: %2.").arg(category.label, category.scope);
    }
    QStringList incomplete, failed;
    for (const QString &id : table.servers) {
        std::map<FigureState, QString> why;
        for (size_t c = 0; c < table.categories.size(); ++c) {
            const Figure &figure = table.at(int(c), id);
            if (!why.count(figure.state))
                why[figure.state] = figure.note;
        }
        const ServerSummary &summary = figures.summary(id);
        if (why.count(FigureState::Incomplete))
            incomplete << QStringLiteral("%1, %2").arg(summary.name, why[FigureState::Incomplete]);
        if (why.count(FigureState::Failed) && summary.hasFigures())
            failed << QStringLiteral("Failed, %1: %2").arg(summary.name, failureSentence(summary, why[FigureState::Failed]));
        else if (why.count(FigureState::Failed))
            failed << QStringLiteral("Not shown: %1 failed: %2").arg(summary.name, failureSentence(summary, why[FigureState::Failed]));
    }
    notes << failed;
    if (const QString unresolved = unresolvedNoteOf(table, figures); !unresolved.isEmpty())
        notes << unresolved;
    if (!incomplete.isEmpty())
        notes << figureMarkNote(FigureState::Incomplete, incomplete);
    if (!table.note.isEmpty())
        notes << table.note;
    if (isTimeMeasure(table.measure))
        notes << figures.bottleneckNote();
    notes.removeAll(QString());
    return notes;
}

// Why a chart has no bars, in one sentence the chart shows in their place.
QString emptyTextOf(const Figures &figures, ChartKind kind, const FigureTable &table)
{
    if (figures.allServerIds().isEmpty())
        return QStringLiteral("No results yet: the bars appear here as a run measures them.");
    if (figures.live())
        return QStringLiteral("Waiting for the first figures.");
    if (const FigureView &view = figureView(kind); !view.whenAbsent.isEmpty() && table.servers.isEmpty())
        return view.whenAbsent;
    return QStringLiteral("No server has a figure for this chart.");
}

// The categories at `indices`, in that order, with their bars.
void takeCategories(ChartData &data, const std::vector<int> &indices)
{
    QStringList categories;
    std::vector<CategoryKind> kinds;
    for (int index : indices) {
        categories << data.categories[index];
        kinds.push_back(data.categoryKinds[size_t(index)]);
    }
    data.categories = categories;
    data.categoryKinds = kinds;
    for (ChartSeries &series : data.series) {
        std::vector<ChartBar> bars;
        for (int index : indices)
            bars.push_back(series.bars[size_t(index)]);
        series.bars = bars;
    }
}

void keepCategories(ChartData &data, const ChartDataOptions &options)
{
    if (options.onlyCategories.isEmpty() && options.topCategories <= 0 && options.maxCategories <= 0)
        return;
    int limit = options.topCategories > 0 ? options.topCategories : int(data.categories.size());
    if (options.maxCategories > 0) {
        const auto totals = std::count_if(data.categoryKinds.begin(), data.categoryKinds.end(), coversOthers);
        limit = std::min(limit, std::max(1, options.maxCategories - int(totals)));
    }
    std::vector<int> kept;
    int others = 0;
    int offered = 0;
    for (int c = 0; c < data.categories.size(); ++c) {
        const QString &category = data.categories[c];
        if (coversOthers(data.categoryKinds[size_t(c)])) {
            kept.push_back(c);
            continue;
        }
        ++offered;
        const bool chosen = options.onlyCategories.isEmpty()
            || std::any_of(options.onlyCategories.begin(), options.onlyCategories.end(),
                           [&category](const QString &name) { return categoryMatches(category, name); });
        if (chosen && others < limit) {
            kept.push_back(c);
            ++others;
        }
    }
    const bool totals = int(kept.size()) > others;
    takeCategories(data, kept);
    // A reader must know the picture is a selection; the totals, where the chart has them,
    // still cover everything.
    if (others < offered)
        data.footnotes << (totals ? QStringLiteral("Showing %1 of %2 categories; totals cover all of them.")
                                  : QStringLiteral("Showing %1 of %2 categories."))
                              .arg(others)
                              .arg(offered);
}

// A part's colour: the palette's in order, its grey kept for the last part (the profile's
// "other"), shades of the first colours past the palette's end.
QColor stackPartColor(int part, int parts)
{
    constexpr int grey = 6;
    constexpr int coloured = 7;   // the palette's colours but its grey
    if (part == parts - 1)
        return paletteColor(grey);
    const int index = part % coloured;
    const QColor color = paletteColor(index >= grey ? index + 1 : index);
    return part < coloured ? color : color.darker(150);
}

// A row per server and a series per part, each part in a colour of its own in every row: the
// figures' table turned so a server's parts lie end to end. Every part stays: a stack of some
// of them would not add up.
void stackByServer(ChartData &data)
{
    std::vector<ChartSeries> parts;
    for (int c = 0; c < int(data.categories.size()); ++c) {
        ChartSeries part;
        part.serverId = data.categories[c];
        part.name = data.categories[c];
        part.color = stackPartColor(c, int(data.categories.size()));
        for (const ChartSeries &server : data.series)
            part.bars.push_back(server.bars[size_t(c)]);
        parts.push_back(std::move(part));
    }
    QStringList rows;
    for (const ChartSeries &server : data.series)
        rows << server.name;
    data.categories = rows;
    data.categoryKinds.assign(size_t(rows.size()), CategoryKind::Type);
    data.series = std::move(parts);
    data.stacked = true;
}

} // namespace

bool categoryMatches(const QString &category, const QString &name)
{
    const auto normal = [](QString text) { return text.replace(QLatin1Char('_'), QLatin1Char(' ')).trimmed().toLower(); };
    return normal(category) == normal(name);
}

bool ChartData::sameShape(const ChartData &other) const
{
    if (kind != other.kind || categories != other.categories || series.size() != other.series.size())
        return false;
    for (size_t i = 0; i < series.size(); ++i) {
        if (series[i].serverId != other.series[i].serverId)
            return false;
    }
    return true;
}

double ChartData::largestExtent() const
{
    double largest = 0;
    for (int row = 0; stacked && row < categories.size(); ++row) {
        double total = 0;
        for (const ChartSeries &s : series)
            total += s.bars[size_t(row)].missing || s.bars[size_t(row)].unsupported ? 0.0 : s.bars[size_t(row)].value;
        largest = std::max(largest, total);
    }
    for (const ChartSeries &s : series) {
        for (const ChartBar &bar : s.bars)
            largest = std::max({largest, bar.value, bar.hasRange ? bar.max : 0.0});
    }
    return largest;
}

FigureTable chartTable(const Figures &figures, ChartKind kind)
{
    return figureView(kind).tableOf(figures);
}

QStringList chartCategoryNames(const Figures &figures, ChartKind kind)
{
    const FigureView &view = figureView(kind);
    QStringList names;
    for (const FigureCategory &category : view.everyCategoryOf(figures).categories)
        names << shownCategoryName(view, category);
    return names;
}

ChartData buildChartData(const Figures &figures, ChartKind kind, const ChartDataOptions &options)
{
    const FigureView &view = figureView(kind);
    ChartData data;
    data.kind = kind;
    // Bars only: a view drawn as parts (the memory Why) has its own data (whychartdata.h).
    if (!view.drawnAsBars()) {
        data.emptyText = QStringLiteral("%1 is drawn as parts, not bars.").arg(view.title);
        return data;
    }
    // The order comes from the figures layer, so the tables Copy gives list categories alike.
    const FigureTable workloadOrder = chartTable(figures, kind);
    const FigureTable table = inCategoryOrder(workloadOrder, figures.baselineId(), figures.options().order);
    data.valueTitle = view.valueTitle(figures);
    data.baselineId = figures.baselineId();
    for (const FigureCategory &category : table.categories) {
        data.categories << shownCategoryName(view, category);
        data.categoryKinds.push_back(category.kind);
    }
    const std::map<QString, QColor> colors = serverColors(figures.bundle());
    // A view not every bundle has, absent from this one (a bundle from before Versus read the
    // server's clock or tails), draws no bars of absent figures: its chart says why instead.
    const bool absent = !hasFiguresFor(figures, kind) && !figures.live();
    for (const QString &id : table.servers) {
        if (absent)
            break;
        if (!figures.summary(id).hasFigures())
            continue;   // no bars; its colour stays reserved
        ChartSeries series;
        series.serverId = id;
        series.name = figures.summary(id).name;
        series.color = colors.at(id);
        series.baseline = id == data.baselineId;
        for (size_t c = 0; c < table.categories.size(); ++c)
            series.bars.push_back(barOf(table.at(int(c), id), table.measure, series.name));
        data.series.push_back(std::move(series));
    }
    data.footnotes = footnotesOf(workloadOrder, figures);
    if (data.series.empty()) {
        // No row a run did not measure, and no axis for bars that are not there.
        data.categories.clear();
        data.categoryKinds.clear();
        data.emptyText = absent && !figures.allServerIds().isEmpty() ? view.whenAbsent : emptyTextOf(figures, kind, workloadOrder);
        if (!view.whenAbsent.isEmpty() && (absent || workloadOrder.servers.isEmpty()))
            data.footnotes.clear();   // the memory table's notes, about rows this chart does not have
        return data;
    }
    if (view.stacked)
        stackByServer(data);
    else
        keepCategories(data, options);
    return data;
}

ResultsBundle withoutServers(const ResultsBundle &bundle, const QStringList &serverIds)
{
    ResultsBundle shown = bundle;
    shown.servers.erase(std::remove_if(shown.servers.begin(), shown.servers.end(),
                                       [&serverIds](const ServerRun &run) { return serverIds.contains(run.id); }),
                        shown.servers.end());
    if (!shown.baseline.isEmpty() && !shown.server(shown.baseline))
        shown.baseline.clear();
    return shown;
}

ResultsBundle shownResults(const Figures &figures)
{
    ResultsBundle shown = withoutServers(figures.bundle(), figures.options().hiddenServers);
    if (shown.server(figures.options().baseline))
        shown.baseline = figures.options().baseline;
    return shown;
}

namespace {

// "Memory per stored attribute", with what a partial total covers, or the command group the
// table leads with: "Time inside the commands, per command (writes)".
QString tableTitle(const FigureTable &table, ChartKind kind)
{
    QString title = figureView(kind).title;
    if (table.categories.empty())
        return title;
    const FigureCategory &lead = table.categories.front();
    if (!lead.over.isEmpty() && lead.total)
        title += QStringLiteral(" over ") + lead.over.join(QStringLiteral(", "));
    if (const QString group = commandGroupOf(lead); !group.isEmpty())
        title += QStringLiteral(" (%1)").arg(group);
    return title;
}

// The unit a headline's two figures are written with: "bytes", "µs", "events/s".
QString headlineUnit(Measure measure)
{
    switch (measure) {
    case Measure::BytesPerKey:
    case Measure::MemoryUsageBytesPerKey: return QStringLiteral("bytes");
    case Measure::UsecPerCall:
    case Measure::UsecPerEvent:
    case Measure::MainThreadCpuPerCall:
    case Measure::EventLoopPerCall:
    case Measure::LatencyP50Usec:
    case Measure::LatencyP99Usec:
    case Measure::ServerP50Usec:
    case Measure::ServerP99Usec:
    case Measure::ServerP999Usec: return QStringLiteral("µs");
    case Measure::MainThreadBusyPercent:
    case Measure::ProfileSharePercent: return QStringLiteral("%");
    case Measure::EventsPerSecond: return QStringLiteral("events/s");
    case Measure::CommandsPerSecond: return QStringLiteral("commands/s");
    case Measure::Keys: return QStringLiteral("keys");
    case Measure::Calls: return QStringLiteral("calls");
    case Measure::RatioToReference: return QStringLiteral("×");
    }
    return {};
}

// One version from one bundle of a comparison to the other: "Valkey 8.0.1, laptop → server".
QString acrossBundlesText(const ResultsBundle &bundle, const ServerRun &from, const ServerRun &to)
{
    QString name = serverDisplayName(bundle, from);
    const QString suffix = QStringLiteral(" @ ") + from.bundleName;
    if (name.endsWith(suffix))
        name.chop(suffix.size());
    return QStringLiteral("%1, %2 → %3").arg(name, from.bundleName, to.bundleName);
}

// The studies' answer (hsetex 1.83× set-ex on Valkey 9.1.2, 120-byte values) on the server the
// figures layer quotes it on; false without a reference type.
bool takeReferenceRatio(const Figures &figures, ChartHeadline &headline)
{
    const FigureTable ratios = figures.referenceRatios();
    const QString id = figures.referenceServer(ratios);
    if (id.isEmpty())
        return false;
    for (size_t c = 0; c < ratios.categories.size(); ++c) {
        const Figure &figure = ratios.at(int(c), id);
        if (!figure.settled())
            continue;
        const auto &parameters = figures.bundle().workload.parameters;
        const auto size = parameters.find(QStringLiteral("value-size"));
        const QString values = size == parameters.end() ? QString() : QStringLiteral(", %1-byte values").arg(size->second);
        headline.ratioMultiple = formatMultiple(figure.value);
        headline.ratio = QStringLiteral("%1 %2 %3 on %4%5")
                             .arg(ratios.categories[c].label, headline.ratioMultiple, figures.referenceType(),
                                  figures.summary(id).name, values);
        headline.ratioCaption = QStringLiteral("memory per key, %1 against %2 on %3%4")
                                    .arg(ratios.categories[c].label, figures.referenceType(), figures.summary(id).name, values);
        return true;
    }
    return false;
}

} // namespace

std::optional<ChartHeadline> chartHeadline(const Figures &figures, ChartKind kind)
{
    const FigureView &view = figureView(kind);
    if (!view.hasHeadline)
        return std::nullopt;
    const ResultsBundle &bundle = figures.bundle();
    const FigureTable table = chartTable(figures, kind);
    const std::optional<Headline> headline = figures.headline(table);
    ChartHeadline result;
    result.title = tableTitle(table, kind);
    const bool ratio = view.carriesMemoryExtras && takeReferenceRatio(figures, result);
    if (!headline)
        return ratio ? std::optional<ChartHeadline>(result) : std::nullopt;
    result.versions = headline->acrossBundles
        ? acrossBundlesText(bundle, *bundle.server(headline->fromId), *bundle.server(headline->toId))
        : figures.summary(headline->fromId).name + QStringLiteral(" → ") + serverVersionText(bundle, *bundle.server(headline->toId));
    if (headline->change) {
        result.change = formatPercentChange(*headline->change);
        result.meaning = headline->meaning;
        result.unresolved = headline->unresolved;
        // No-break spaces: a wrapped title keeps "201.0 → 169.6 bytes" on one line.
        result.values = QStringLiteral("%1\u00A0→\u00A0%2\u00A0%3").arg(formatFigure(table.at(0, headline->fromId).value),
                                                          formatFigure(table.at(0, headline->toId).value),
                                                          headlineUnit(table.measure));
    }
    result.provisional = headline->provisional;
    return result;
}

QString ChartHeadline::caption() const
{
    QString text = title + QStringLiteral(", ") + versions;
    text[0] = text[0].toLower();
    return text;
}

QString defaultChartTitle(const Figures &figures, ChartKind kind)
{
    const std::optional<ChartHeadline> headline = chartHeadline(figures, kind);
    if (!headline)
        return tableTitle(chartTable(figures, kind), kind);
    if (headline->versions.isEmpty())
        return headline->title + QStringLiteral(": ") + headline->ratio;
    QString title = headline->title + QStringLiteral(", ") + headline->versions;
    if (!headline->change.isEmpty())
        title += QStringLiteral(": ") + headline->values + QStringLiteral(", ") + headline->change
            + (headline->unresolved.isEmpty() ? QString() : QStringLiteral(" (not resolved)"));
    if (headline->provisional)
        title += QStringLiteral(" (provisional)");
    return headline->ratio.isEmpty() ? title : title + QStringLiteral("; ") + headline->ratio;
}

QString defaultChartSubtitle(const Figures &figures, ChartKind kind)
{
    // Servers whose allocators differ compare builds as well as versions: the chart says so
    // under its headline, on a line of its own.
    // A time chart's caveat speaks of time, which a build moves only where the run resolved it.
    const FigureView &view = figureView(kind);
    const QString caveat = !view.carriesBuildCaveat ? QString()
        : figures.buildCaveat(isTimeMeasure(chartTable(figures, kind).measure) ? CaveatOf::Time : CaveatOf::Memory);
    QString subtitle = view.subtitle(figures.bundle().repeats);
    // A view that explains its figures says the figures layer's sentence on a line of its own.
    if (const QString explanation = view.explanation ? view.explanation(figures) : QString(); !explanation.isEmpty())
        subtitle += QLatin1Char('\n') + explanation;
    return caveat.isEmpty() ? subtitle : subtitle + QLatin1Char('\n') + caveat;
}


QString defaultChartFootnote(const Figures &figures)
{
    return provenanceParts(figures.bundle(), figures.serverIds()).join(QStringLiteral(" · "));
}
