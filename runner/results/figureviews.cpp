#include "figureviews.h"
#include "memoryexplanation.h"
#include "timeexplanation.h"

#include <QStringList>
#include <algorithm>
#include <functional>

namespace {

QString bytesPerKeyAxis(const Figures &) { return QStringLiteral("bytes per key (used_memory)"); }
QString bytesPerKeyUnit(const Figures &) { return QStringLiteral("bytes per key"); }
QString typeColumn(const Figures &figures)
{
    return figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Attribute");
}

QString usecPerCallAxis(const Figures &) { return QStringLiteral("µs per call inside the commands (INFO commandstats)"); }
QString usecPerCallUnit(const Figures &) { return QStringLiteral("µs per call"); }
QString commandColumn(const Figures &) { return QStringLiteral("Command"); }

QString usecPerEventAxis(const Figures &) { return QStringLiteral("µs per event inside the commands (INFO commandstats)"); }
QString usecPerEventUnit(const Figures &) { return QStringLiteral("µs per event"); }
QString eventsColumn(const Figures &) { return QStringLiteral("Events"); }

// Events per second, or commands per second when each event is one command.
QString throughputAxis(const Figures &figures)
{
    return figures.throughputInEvents() ? QStringLiteral("events per second (client side)")
                                        : QStringLiteral("commands per second (client side)");
}
QString throughputUnit(const Figures &figures)
{
    return figures.throughputInEvents() ? QStringLiteral("events per second") : QStringLiteral("commands per second");
}
QString workColumn(const Figures &) { return QStringLiteral("Work"); }

QString clusterOverheadAxis(const Figures &) { return QStringLiteral("bytes per key beyond standalone (used_memory)"); }

QString bytesPerKeyPartsAxis(const Figures &) { return QStringLiteral("bytes per key"); }

// Drawn as parts, not bars (whychart.h): it reads the memory table for the categories it
// explains, and report.md shows it inside the memory section, not as a section of its own.
FigureView whyMemoryView()
{
    FigureView why;
    why.kind = ChartKind::WhyMemory;
    why.stem = QStringLiteral("why-memory");
    why.title = QStringLiteral("Where each key's bytes go");
    why.tabTitle = QStringLiteral("Why");
    why.measured = QStringLiteral("Each server's bytes per key split by its own accounting (MEMORY STATS), the rest not "
                                  "attributed");
    why.drawing = ViewDrawing::MemoryParts;
    why.table = &Figures::memory;
    why.valueTitle = bytesPerKeyPartsAxis;
    // Its title carries the two figures its sentence explains; no change against the baseline.
    why.hasHeadline = false;
    why.presence = ViewPresence::MemoryAccounted;
    why.presenceText = QStringLiteral("a server that reported its memory accounting");
    why.whenAbsent = QStringLiteral("No shown server reported its memory accounting (MEMORY STATS): bundles from before "
                                    "Versus read it have none.");
    return why;
}

QString timePartsAxis(const Figures &) { return QStringLiteral("µs per command (INFO stats event loop, commandstats, INFO cpu)"); }
QString timePartsUnit(const Figures &) { return QStringLiteral("µs per command"); }
QString partColumn(const Figures &) { return QStringLiteral("Part"); }
QString timeExplanationText(const Figures &figures) { return figures.explainTime().sentence; }

FigureView whyTimeView()
{
    FigureView why;
    why.kind = ChartKind::WhyTime;
    why.stem = QStringLiteral("why-time");
    why.title = QStringLiteral("Where the server's time per command goes");
    why.tabTitle = QStringLiteral("Why (time)");
    why.measured = QStringLiteral("The event loop's time per command split by the server's own counters (INFO stats, "
                                  "commandstats), and its main-thread CPU per command (INFO cpu)");
    why.table = &Figures::timeParts;
    why.valueTitle = timePartsAxis;
    why.reportUnit = timePartsUnit;
    why.reportFirstColumn = partColumn;
    why.reportTitle = QStringLiteral("Why (time): where the server's time per command goes");
    why.explanation = timeExplanationText;
    why.presence = ViewPresence::LoopReported;
    why.presenceText = QStringLiteral("a server that reported its event loop");
    why.whenAbsent = QStringLiteral("No server reported its event loop: Redis 7.0 does not, and bundles from before Versus "
                                    "read the server's clock have none. Run Valkey or Redis 7.2 or later to see where the time goes.");
    return why;
}

QString profileAxis(const Figures &) { return QStringLiteral("% of the server's perf samples (untimed profile pass)"); }
QString profileUnit(const Figures &) { return QStringLiteral("% of samples"); }
QString profileCategoryColumn(const Figures &) { return QStringLiteral("Category"); }
QString profileExplanationText(const Figures &figures) { return figures.profileSentence(); }

FigureView profileView()
{
    FigureView profile;
    profile.kind = ChartKind::Profile;
    profile.stem = QStringLiteral("profile");
    profile.title = QStringLiteral("Where the server's CPU goes (perf)");
    profile.tabTitle = QStringLiteral("Profile");
    profile.measured = QStringLiteral("Share of perf's cpu-clock samples of the server, by the function each landed in");
    profile.table = &Figures::profileShares;
    profile.valueTitle = profileAxis;
    profile.reportUnit = profileUnit;
    profile.reportFirstColumn = profileCategoryColumn;
    profile.reportTitle = QStringLiteral("Profile: where the server's CPU goes (perf, untimed pass)");
    profile.explanation = profileExplanationText;
    // Shares of one pass per server: no change against the baseline; the sentence says the
    // biggest difference in points.
    profile.hasHeadline = false;
    profile.hasDirection = false;
    profile.spreadText = QStringLiteral("one untimed pass per server after the timed ones");
    profile.carriesBuildCaveat = false;   // the sentence names a build without symbols
    profile.stacked = true;
    profile.presence = ViewPresence::ProfileRecorded;
    profile.presenceText = QStringLiteral("a server profiled with --profile");
    profile.whenAbsent = QStringLiteral("No server was profiled: run with --profile (the window's Profile (perf) box) on a "
                                        "machine with perf to see where each version's CPU goes.");
    return profile;
}

QString serverTailsAxis(const Figures &) { return QStringLiteral("server-side p99, µs (upper bound of its LATENCY HISTOGRAM bucket)"); }

std::vector<FigureView> makeViews()
{
    std::vector<FigureView> views(6);
    FigureView &memory = views[0];
    memory.kind = ChartKind::MemoryPerAttribute;
    memory.stem = QStringLiteral("memory-per-attribute");
    memory.title = QStringLiteral("Memory per stored attribute");
    memory.tabTitle = QStringLiteral("Memory per attribute");
    memory.measured = QStringLiteral("Bytes of used_memory per stored key");
    memory.table = &Figures::memory;
    memory.valueTitle = bytesPerKeyAxis;
    memory.reportUnit = bytesPerKeyUnit;
    memory.reportFirstColumn = typeColumn;
    memory.carriesMemoryExtras = true;

    FigureView &command = views[1];
    command.kind = ChartKind::UsecPerCommand;
    command.stem = QStringLiteral("usec-per-command");
    command.title = QStringLiteral("Time inside the commands, per command");
    command.tabTitle = QStringLiteral("µs per command");
    command.measured = QStringLiteral("Time inside the commands per call, from INFO commandstats: not the event loop around them");
    command.table = &Figures::commandTime;
    command.unfolded = &Figures::allCommandTimes;
    command.valueTitle = usecPerCallAxis;
    command.reportUnit = usecPerCallUnit;
    command.reportFirstColumn = commandColumn;
    command.categoriesAreCommands = true;
    command.reportTitle = QStringLiteral("Time inside the commands (commandstats), per command");

    FigureView &event = views[2];
    event.kind = ChartKind::UsecPerEvent;
    event.stem = QStringLiteral("usec-per-event");
    event.title = QStringLiteral("Time inside the commands, per event");
    event.tabTitle = QStringLiteral("µs per event");
    event.measured = QStringLiteral("Time inside all commands of one event, from INFO commandstats");
    event.table = &Figures::perEvent;
    event.valueTitle = usecPerEventAxis;
    event.reportUnit = usecPerEventUnit;
    event.reportFirstColumn = eventsColumn;
    event.reportTitle = QStringLiteral("Time inside the commands (commandstats), per event");

    FigureView &throughput = views[3];
    throughput.kind = ChartKind::Throughput;
    throughput.stem = QStringLiteral("throughput");
    throughput.title = QStringLiteral("Throughput");
    throughput.tabTitle = QStringLiteral("Throughput");
    throughput.measured = QStringLiteral("Measured by the client");
    throughput.lowerIsBetter = false;
    throughput.table = &Figures::throughput;
    throughput.valueTitle = throughputAxis;
    throughput.reportUnit = throughputUnit;
    throughput.reportFirstColumn = workColumn;
    throughput.reportTitle = QStringLiteral("Throughput, measured by the client");

    FigureView &cluster = views[4];
    cluster.kind = ChartKind::ClusterOverhead;
    cluster.stem = QStringLiteral("cluster-overhead");
    cluster.title = QStringLiteral("Cost of cluster mode");
    cluster.tabTitle = QStringLiteral("Cost of cluster mode");
    cluster.measured = QStringLiteral("Each cluster's bytes per key less the same version's standalone figure");
    cluster.presence = ViewPresence::VersionInBothTopologies;
    cluster.table = &Figures::clusterOverhead;
    cluster.valueTitle = clusterOverheadAxis;
    cluster.presenceText = QStringLiteral("a version run in both topologies");
    cluster.whenAbsent = QStringLiteral("No version ran both standalone and as a cluster: run with the topology "
                                        "standalone,cluster:1 to see what cluster mode costs.");
    // Each bar is already a difference, against its own standalone series, not the baseline;
    // report.md shows it inside the memory section.
    cluster.hasHeadline = false;

    FigureView &tails = views[5];
    tails.kind = ChartKind::ServerTails;
    tails.stem = QStringLiteral("server-tails");
    tails.title = QStringLiteral("Server-side p99 per command");
    tails.tabTitle = QStringLiteral("Server-side p99");
    tails.measured = QStringLiteral("The server's own p99 per command from its LATENCY HISTOGRAM, as the upper bound of the "
                                    "bucket it falls in (buckets double: 1, 2, 4, 8, 16, 33 µs …), not the client's round trip");
    tails.table = &Figures::serverTailsP99;
    tails.valueTitle = serverTailsAxis;
    tails.categoriesAreCommands = true;
    // Bounds a factor of two apart say no percent change; report.md gives p50, p99 and p99.9
    // in a section of its own (tailsmarkdown.h), each as its bucket reads.
    tails.hasHeadline = false;
    tails.presence = ViewPresence::ServerTailsRead;
    tails.presenceText = QStringLiteral("a server whose server-side tails were read");
    tails.whenAbsent = QStringLiteral("No server's LATENCY HISTOGRAM was read: the bundle is from before Versus read it, or every "
                                      "server was an endpoint whose latency tracking was off or that refused LATENCY.");

    views.push_back(whyMemoryView());
    views.push_back(whyTimeView());
    views.push_back(profileView());
    return views;
}

// Whether any timed pass of the bundle has a server-side tail: the tails chart has a bar.
bool anyServerTails(const ResultsBundle &bundle)
{
    for (const ServerRun &run : bundle.servers) {
        for (const RepeatResult &repeat : run.repeats) {
            if (!repeat.timing.tails.byCommand.empty())
                return true;
            for (const auto &[type, memory] : repeat.byType) {
                if (memory.timing && !memory.timing->tails.byCommand.empty())
                    return true;
            }
        }
    }
    return false;
}

std::vector<ChartKind> kindsWhere(const std::function<bool(const FigureView &)> &keep)
{
    std::vector<ChartKind> kinds;
    for (const FigureView &view : figureViews()) {
        if (keep(view))
            kinds.push_back(view.kind);
    }
    return kinds;
}

// Whether any server of the bundle was profiled: the profile chart has a bar.
bool anyProfile(const ResultsBundle &bundle)
{
    return std::any_of(bundle.servers.begin(), bundle.servers.end(), [](const ServerRun &run) { return run.profile.recorded(); });
}

// What a run or a bundle has, each worked out only when a view asks for it.
struct Presences {
    std::function<bool()> bothTopologies;
    std::function<bool()> loopReported;
    std::function<bool()> tailsRead;
    std::function<bool()> profiled;
    std::function<bool()> memoryAccounted;

    bool has(ViewPresence presence) const
    {
        switch (presence) {
        case ViewPresence::EveryBundle:
            return true;
        case ViewPresence::VersionInBothTopologies:
            return bothTopologies();
        case ViewPresence::LoopReported:
            return loopReported();
        case ViewPresence::ServerTailsRead:
            return tailsRead();
        case ViewPresence::ProfileRecorded:
            return profiled();
        case ViewPresence::MemoryAccounted:
            return memoryAccounted();
        }
        return false;
    }
};

Presences presencesOf(const Figures &figures)
{
    Presences presences;
    // Asked on every live refresh: the pairing alone, not the cost's figures.
    presences.bothTopologies = [&figures] {
        const QStringList clusters = figures.clusterServerIds();
        return std::any_of(clusters.begin(), clusters.end(),
                           [&figures](const QString &id) { return !figures.standalonePartnerOf(id).isEmpty(); });
    };
    presences.loopReported = [&figures] {
        const FigureTable parts = figures.timeParts();
        const int loop = parts.categoryIndex(TimePart::Loop);
        return loop >= 0 && std::any_of(parts.servers.begin(), parts.servers.end(), [&parts, loop](const QString &id) {
                   return parts.at(loop, id).hasValue();
               });
    };
    presences.tailsRead = [&figures] { return anyServerTails(figures.bundle()); };
    presences.profiled = [&figures] { return anyProfile(figures.bundle()); };
    presences.memoryAccounted = [&figures] { return !defaultWhyCategory(figures).isEmpty(); };
    return presences;
}

std::vector<ChartKind> kindsPresent(const Presences &presences)
{
    return kindsWhere([&presences](const FigureView &view) { return presences.has(view.presence); });
}

} // namespace

QString FigureView::subtitle(int repeats) const
{
    const QString spread = !spreadText.isEmpty() ? spreadText
        : repeats > 1                             ? QStringLiteral("median of %1 repeats, bars show min–max").arg(repeats)
                                                  : QStringLiteral("one run");
    if (!hasDirection)
        return QStringLiteral("%1, %2.").arg(measured, spread);
    return QStringLiteral("%1, %2. %3 is better.")
        .arg(measured, spread, lowerIsBetter ? QStringLiteral("Lower") : QStringLiteral("Higher"));
}

const std::vector<FigureView> &figureViews()
{
    static const std::vector<FigureView> views = makeViews();
    return views;
}

const FigureView &figureView(ChartKind kind)
{
    const std::vector<FigureView> &views = figureViews();
    return *std::find_if(views.begin(), views.end(), [kind](const FigureView &view) { return view.kind == kind; });
}

std::optional<ChartKind> chartKindNamed(const QString &name)
{
    const QString wanted = name.trimmed().toLower();
    for (const FigureView &view : figureViews()) {
        if (view.stem == wanted)
            return view.kind;
    }
    return std::nullopt;
}

QStringList chartStems()
{
    QStringList stems;
    for (const FigureView &view : figureViews())
        stems << view.stem;
    return stems;
}

std::vector<ChartKind> everyBundleChartKinds()
{
    return kindsWhere([](const FigureView &view) { return view.presence == ViewPresence::EveryBundle; });
}

std::vector<ChartKind> everyChartKind()
{
    return kindsWhere([](const FigureView &) { return true; });
}

std::vector<ChartKind> chartKindsOf(const Figures &figures)
{
    return kindsPresent(presencesOf(figures));
}

bool hasFiguresFor(const Figures &figures, ChartKind kind)
{
    return presencesOf(figures).has(figureView(kind).presence);
}

std::vector<ChartKind> plannedChartKinds(bool bothTopologies, bool profiled)
{
    Presences planned;
    planned.bothTopologies = [bothTopologies] { return bothTopologies; };
    planned.loopReported = [] { return true; };
    planned.tailsRead = [] { return true; };
    planned.profiled = [profiled] { return profiled; };
    planned.memoryAccounted = [] { return true; };
    return kindsPresent(planned);
}
