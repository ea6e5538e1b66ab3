#include "reportmarkdown.h"
#include "releasenotesmarkdown.h"
#include "whymarkdown.h"
#include "profilemarkdown.h"
#include "whytimemarkdown.h"

#include <algorithm>

#include "bundlemarkdown.h"
#include "figuremarks.h"
#include "figureviews.h"

#include "markdowntable.h"
#include "presentation.h"
#include "provenance.h"
#include "tailsmarkdown.h"

#include <QLocale>

namespace {

// A view's section (figureviews.h), with its table in the order asked for.
struct Section {
    const FigureView *view;   // null: a section with no chart of its own
    QString title;         // "Memory per stored attribute"
    QString unit;          // "bytes per key"
    QString firstColumn;   // "Attribute"
    FigureTable table;
};

// "- **Memory per stored attribute**: 191.4 → 175.4 bytes per key from Valkey 8.0.1 to Valkey 9.1.2 (−8.4%)."
QString headlineLine(const Figures &figures, const Section &section)
{
    const std::optional<Headline> headline = figures.headline(section.table);
    if (!headline || !headline->change)
        return {};
    const Figure &from = section.table.at(0, headline->fromId);
    const Figure &to = section.table.at(0, headline->toId);
    // A time change the run did not resolve says so where it is stated.
    const QString change = headline->unresolved.isEmpty()
                               ? formatPercentChange(*headline->change)
                               : QStringLiteral("%1, %2").arg(formatPercentChange(*headline->change), headline->unresolved);
    return QStringLiteral("- **%1** (%2): %3 → %4 %5 from %6 to %7 (%8).\n")
        .arg(section.title, markdownText(headline->categoryLabel), formatFigure(from.value), formatFigure(to.value), section.unit,
             markdownServerName(figures, headline->fromId), markdownServerName(figures, headline->toId), change);
}

// A workload measured against a reference pattern has no total to lead with: one bullet per
// pattern on the server the figures layer quotes its ratios on, "- **Memory against set-ex** on Valkey 9.1.2: hsetex
// 221.6 bytes per key, 3.07× set-ex's 72.1."
QString referenceLines(const Figures &figures)
{
    const FigureTable ratios = figures.referenceRatios();
    const QString quoted = figures.referenceServer(ratios);
    if (quoted.isEmpty())
        return {};
    const FigureTable memory = figures.memory();
    const int reference = memory.categoryIndex(figures.referenceType());
    QString lines;
    for (size_t c = 0; c < ratios.categories.size(); ++c) {
        const Figure &ratio = ratios.at(int(c), quoted);
        const int row = memory.categoryIndex(ratios.categories[c].id);
        if (!ratio.settled() || ratio.state != FigureState::Measured || row < 0 || reference < 0)
            continue;
        lines += QStringLiteral("- **Memory against %1** on %2: %3 %4 bytes per key, %5 %1's %6.\n")
                     .arg(markdownText(figures.referenceType()), markdownServerName(figures, quoted),
                          markdownText(ratios.categories[c].label), formatFigure(memory.at(row, quoted).value),
                          formatMultiple(ratio.value), formatFigure(memory.at(reference, quoted).value));
    }
    return lines;
}

bool anyFigure(const FigureTable &table)
{
    for (const std::vector<Figure> &row : table.cells) {
        for (const Figure &figure : row) {
            if (figure.hasValue())
                return true;
        }
    }
    return false;
}

QString relativeCell(const Figure &figure, bool isBaseline)
{
    if (isBaseline && figure.hasValue())
        return QStringLiteral("1.00 (baseline)");
    if (!figure.ratio)
        return figure.hasValue() ? QStringLiteral("—") : markdownCell(figure);
    return withUnresolvedMark(formatRatio(figure.ratio, figure.ratioPlusMinus), figure);
}

// Whether a ratio of the relative tables carries a ± (paired repeats): a single run's do not,
// and the report explains no sign it does not print.
bool anyRatioPlusMinus(const std::vector<Section> &sections, const QStringList &ids, const QString &baseline)
{
    for (const Section &section : sections) {
        for (size_t c = 0; c < section.table.categories.size(); ++c) {
            for (const QString &id : ids) {
                const Figure &figure = section.table.at(int(c), id);
                if (id != baseline && figure.ratio && figure.ratioPlusMinus)
                    return true;
            }
        }
    }
    return false;
}

QString relativeTable(const Figures &figures, const Section &section, const QStringList &ids)
{
    const QString baseline = figures.baselineId();
    QString markdown = QStringLiteral("\nAgainst %1:\n\n").arg(markdownServerName(figures, baseline));
    markdown += markdownHeader(section.firstColumn, markdownServerNames(figures, ids));
    for (size_t c = 0; c < section.table.categories.size(); ++c) {
        QStringList cells{markdownText(section.table.categories[c].label)};
        for (const QString &id : ids)
            cells << relativeCell(section.table.at(int(c), id), id == baseline);
        markdown += markdownRow(cells);
    }
    return markdown;
}

QString sectionMarkdown(const Figures &figures, const Section &section, const QStringList &ids,
                        const std::map<QString, QString> &images)
{
    QString markdown = QStringLiteral("\n## %1 (%2)\n\n").arg(section.title, section.unit);
    if (const auto image = section.view ? images.find(section.view->stem) : images.end(); image != images.end())
        markdown += QStringLiteral("![%1](%2)\n\n").arg(section.title, image->second);
    MarkdownNotes notes;
    markdown += markdownHeader(section.firstColumn, markdownServerNames(figures, ids));
    appendMarkdownRows(markdown, section.table, ids, notes);
    markdown += notes.text(section.table.note);
    // A view without a change against the baseline (the profile's shares) has no ratios to give.
    if (ids.contains(figures.baselineId()) && ids.size() > 1 && (!section.view || section.view->hasHeadline))
        markdown += relativeTable(figures, section, ids);
    if (section.view && section.view->kind == ChartKind::WhyTime)
        markdown += whyTimeMarkdown(figures, ids);
    if (section.view && section.view->kind == ChartKind::Profile)
        markdown += profileMarkdown(figures, ids);
    if (section.view && section.view->carriesMemoryExtras) {
        const auto named = [&figures](const QString &id) { return markdownServerName(figures, id); };
        markdown += referenceRatiosMarkdown(figures, ids, named, QStringLiteral("###"));
        const auto image = images.find(figureView(ChartKind::ClusterOverhead).stem);
        markdown += clusterOverheadMarkdown(figures, named, QStringLiteral("###"), image == images.end() ? QString() : image->second);
        markdown += clusterNodesMarkdown(figures);
    }
    return markdown;
}

// "16 B"; "unknown (MEMORY MALLOC-STATS refused: …)"; "—" for libc or a bundle that never read it.
QString quantumCell(const AllocatorFacts &facts)
{
    if (facts.quantumBytes > 0)
        return QStringLiteral("%1 B").arg(facts.quantumBytes);
    if (facts == AllocatorFacts() || quantumText(facts).isEmpty())
        return QString();
    return QStringLiteral("unknown (%1)").arg(markdownText(facts.quantumProblem));
}

QString provenanceMarkdown(const Figures &figures)
{
    const ResultsBundle &bundle = figures.bundle();
    // The workload's name, the machine and the version are the bundle's text: shown as text.
    QString markdown = QStringLiteral("\n## How these figures were made\n\n");
    markdown += QStringLiteral("- Workload: %1\n- Repeats: %2\n").arg(markdownText(workloadProvenance(bundle)), repeatsProvenance(bundle));
    if (const QString transport = transportProvenance(bundle, figures.serverIds()); !transport.isEmpty())
        markdown += QStringLiteral("- Transport: every server %1\n").arg(transport);
    const QString machine = machineProvenance(bundle, true);
    markdown += QStringLiteral("- Machine: %1\n").arg(machine.isEmpty() ? QStringLiteral("unknown") : markdownText(machine));
    if (!bundle.compared.empty())
        markdown += QStringLiteral("- Run: %1, %2\n").arg(dateProvenance(bundle), markdownText(versusProvenance(bundle)));
    else if (bundle.created.isValid())
        markdown += QStringLiteral("- Run: %1 UTC, Versus %2\n")
                        .arg(bundle.created.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")), markdownText(bundle.versusVersion));
    markdown += QStringLiteral("\n") + markdownHeader(QStringLiteral("Server"), {QStringLiteral("Origin"), QStringLiteral("Build id"),
                                                                              QStringLiteral("Allocator"), QStringLiteral("Quantum"),
                                                                              QStringLiteral("Executable sha256"), QStringLiteral("Status")});
    const auto orDash = [](const QString &text) { return text.isEmpty() ? QStringLiteral("—") : text; };
    for (const QString &id : figures.serverIds()) {
        const ServerRun &run = *bundle.server(id);
        const QString sha = run.executableSha256.isEmpty() ? run.binarySha256 : run.executableSha256;
        const QString allocator = run.allocatorFacts.memAllocator.isEmpty() ? run.allocator : run.allocatorFacts.memAllocator;
        markdown += markdownRow({markdownServerName(figures, id), orDash(markdownText(buildOriginText(run))),
                                 run.buildId.isEmpty() ? QStringLiteral("—") : markdownCode(run.buildId),
                                 orDash(markdownText(allocator)), orDash(quantumCell(run.allocatorFacts)),
                                 sha.isEmpty() ? QStringLiteral("—") : markdownCode(sha.left(16)),
                                 markdownText(figures.summary(id).statusText())});
    }
    for (const QString &problem : figures.dataProblems())
        markdown += QStringLiteral("\nData check: %1\n").arg(markdownText(problem));
    return markdown;
}

std::vector<Section> sectionsOf(const Figures &figures, CategoryOrder order)
{
    std::vector<Section> sections;
    for (const FigureView &view : figureViews()) {
        // A view only some bundles have (Why (time): a server reported its event loop) is there
        // when it is. The memory Why has no unit of its own: whyMarkdown() shows it inside the
        // memory section.
        if (view.inReport() && hasFiguresFor(figures, view.kind))
            sections.push_back({&view, view.sectionTitle(), view.reportUnit(figures), view.reportFirstColumn(figures),
                                inCategoryOrder(view.tableOf(figures), figures.baselineId(), order)});
        if (view.kind != ChartKind::UsecPerEvent)
            continue;
        // The server's own time per command in all, beside the time inside the commands, where
        // the bundle has it (no chart of their own).
        const std::pair<Measure, QString> inAll[] = {
            {Measure::MainThreadCpuPerCall, QStringLiteral("Server time per command in all, main-thread CPU (INFO cpu)")},
            {Measure::EventLoopPerCall, QStringLiteral("Server time per command in all, event loop (INFO stats)")},
        };
        for (const auto &[measure, title] : inAll) {
            FigureTable table = figures.serverTime(measure);
            if (anyFigure(table))
                sections.push_back({nullptr, title, QStringLiteral("µs per command"), QStringLiteral("Commands"), table});
        }
    }
    return sections;
}

} // namespace

QString reportMarkdown(const Figures &figures, const std::map<QString, QString> &images, CategoryOrder order)
{
    QStringList ids;
    for (const QString &id : figures.serverIds()) {
        if (figures.summary(id).hasFigures())
            ids << id;
    }
    QStringList names = markdownServerNames(figures, figures.serverIds());
    const QString last = names.size() > 1 ? names.takeLast() : QString();
    QString markdown = QStringLiteral("# %1%2 on the %3 workload\n\n")
                           .arg(names.join(QStringLiteral(", ")), last.isEmpty() ? QString() : QStringLiteral(" and ") + last,
                                markdownText(figures.bundle().workload.name));
    if (figures.live())
        markdown += QStringLiteral("The run was still going: every figure is provisional.\n\n");
    const std::vector<Section> sections = sectionsOf(figures, order);
    // The answer first, as a sentence, then the figures it stands on.
    if (const QString answer = figures.answer(); !answer.isEmpty())
        markdown += QStringLiteral("**Answer:** %1\n\n").arg(markdownText(answer));
    QString headlines;
    for (const Section &section : sections)
        headlines += headlineLine(figures, section);
    headlines += referenceLines(figures);
    if (!headlines.isEmpty())
        markdown += headlines + QLatin1Char('\n');
    if (const QString noise = figures.noiseNote(); !headlines.isEmpty() && !noise.isEmpty())
        markdown += markdownText(noise) + QStringLiteral("\n\n");
    // Right after the headlines: what of the difference may be the build or TLS rather than the version.
    if (const QString caveat = buildCaveatsOfTables(figures); !caveat.isEmpty())
        markdown += QStringLiteral("**Build:** %1\n\n").arg(markdownText(caveat));
    if (const QString caveat = figures.transportCaveat(); !caveat.isEmpty())
        markdown += QStringLiteral("**Transport:** %1\n\n").arg(markdownText(caveat));
    if (const QString caveat = figures.limitsCaveat(); !caveat.isEmpty())
        markdown += QStringLiteral("**Measurement:** %1\n\n").arg(markdownText(caveat));
    if (ids.size() > 1 && ids.contains(figures.baselineId()))
        markdown += QStringLiteral("Ratios are against %1, the baseline%2.\n")
                        .arg(markdownServerName(figures, figures.baselineId()),
                             anyRatioPlusMinus(sections, ids, figures.baselineId())
                                 ? QStringLiteral(": ± is half the 95% interval of the ratios taken repeat by repeat, "
                                                  "or half their range with fewer than 5 repeats")
                                 : QString());
    for (const Section &section : sections) {
        markdown += sectionMarkdown(figures, section, ids, images);
        // Why the memory differs, right after the memory figures it explains.
        if (section.view && section.view->carriesMemoryExtras) {
            const auto whyImage = images.find(figureView(ChartKind::WhyMemory).stem);
            markdown += whyMarkdown(figures, whyImage == images.end() ? QString() : whyImage->second);
        }
    }
    // What to read about the commands whose time changed, after the time figures.
    markdown += releaseNotesMarkdown(figures, QStringLiteral("##"));
    // Its own section, not a row's: each percentile reads as its bucket ("≤ 16 µs"), not as a number.
    const auto tailsImage = images.find(figureView(ChartKind::ServerTails).stem);
    markdown += serverTailsMarkdown(figures, ids, QStringLiteral("##"), tailsImage == images.end() ? QString() : tailsImage->second);
    markdown += configDifferencesMarkdown(figures, [&figures](const QString &id) { return markdownServerName(figures, id); },
                                          QStringLiteral("##"));
    return markdown + provenanceMarkdown(figures);
}
