#include "provenance.h"

#include "presentation.h"

#include <QLocale>

namespace {

// "20000" -> "20,000"; anything that is not a whole number stays as it is.
QString readableValue(const QString &value)
{
    bool whole = false;
    const qlonglong number = value.toLongLong(&whole);
    return whole && value.size() > 3 ? QLocale(QLocale::English).toString(number) : value;
}

// "one run, fair schedule", and how the replay sent the events when not one event per pipeline
// over one connection: ", 256 events per pipeline, 8 clients per server".
QString scheduleRepeats(Schedule schedule, int repeats, int eventsPerBatch, int clients)
{
    const QString scheduleText = schedule == Schedule::Fair ? QStringLiteral("fair schedule")
                                                            : QStringLiteral("concurrent schedule");
    const QString repeatsText = repeats > 1 ? QStringLiteral("median of %1 repeats").arg(repeats)
                                            : QStringLiteral("one run");
    QString text = repeatsText + QStringLiteral(", ") + scheduleText;
    if (eventsPerBatch > 1)
        text += QStringLiteral(", %1 events per pipeline").arg(eventsPerBatch);
    if (clients > 1)
        text += QStringLiteral(", %1 clients per server").arg(clients);
    return text;
}

QString dateOf(const QDateTime &created)
{
    return created.isValid() ? created.toUTC().toString(QStringLiteral("yyyy-MM-dd")) : QString();
}

QString versusOf(const QString &version)
{
    return QStringLiteral("Versus %1").arg(version.isEmpty() ? QStringLiteral("?") : version);
}

// `own` of a run's bundle; for a comparison, of each bundle: once when they agree,
// else "laptop: …; server: …" (a bundle with nothing to say reads "unknown").
template <typename Part>
QString perBundle(const ResultsBundle &bundle, const QString &own, Part part)
{
    if (bundle.compared.size() < 2)
        return own;
    QStringList values;
    for (const ComparedBundle &source : bundle.compared)
        values << part(source);
    if (values.count(values.first()) == values.size())
        return values.first();
    QStringList named;
    for (size_t i = 0; i < bundle.compared.size(); ++i) {
        const QString &value = values[int(i)];
        named << QStringLiteral("%1: %2").arg(bundle.compared[i].name, value.isEmpty() ? QStringLiteral("unknown") : value);
    }
    return named.join(QStringLiteral("; "));
}

} // namespace

QString workloadProvenance(const WorkloadInfo &workload)
{
    QStringList parameters;
    for (const auto &[name, value] : workload.parameters) {
        if (name == QLatin1String("events"))
            continue;   // said once, below
        parameters << QStringLiteral("%1 %2").arg(name, readableValue(value));
    }
    QString text = workload.name;
    if (!parameters.isEmpty())
        text += QStringLiteral(" (%1)").arg(parameters.join(QStringLiteral(", ")));
    if (workload.events > 0)
        text += QStringLiteral(", %1 events").arg(QLocale(QLocale::English).toString(workload.events));
    return text;
}

QString workloadProvenance(const ResultsBundle &bundle)
{
    return perBundle(bundle, workloadProvenance(bundle.workload),
                     [](const ComparedBundle &source) { return workloadProvenance(source.workload); });
}

QString repeatsProvenance(const ResultsBundle &bundle)
{
    return perBundle(bundle, scheduleRepeats(bundle.schedule, bundle.repeats, bundle.eventsPerBatch, bundle.clients),
                     [](const ComparedBundle &source) {
                         return scheduleRepeats(source.schedule, source.repeats, source.eventsPerBatch, source.clients);
                     });
}

QString transportProvenance(const ResultsBundle &bundle, const QStringList &serverIds)
{
    bool unchecked = false;
    for (const QString &id : serverIds) {
        const ServerRun *run = bundle.server(id);
        if (!run || !run->overTls())
            return QString();
        unchecked = unchecked || run->transport == QLatin1String("tls-unchecked");
    }
    if (serverIds.isEmpty())
        return QString();
    return unchecked ? QStringLiteral("over TLS, certificates not checked") : QStringLiteral("over TLS");
}

QString machineProvenance(const ResultsBundle &bundle, bool withOs)
{
    return perBundle(bundle, machineProvenance(bundle.machine, withOs),
                     [withOs](const ComparedBundle &source) { return machineProvenance(source.machine, withOs); });
}

QString dateProvenance(const ResultsBundle &bundle)
{
    return perBundle(bundle, dateOf(bundle.created), [](const ComparedBundle &source) { return dateOf(source.created); });
}

QString versusProvenance(const ResultsBundle &bundle)
{
    return perBundle(bundle, versusOf(bundle.versusVersion),
                     [](const ComparedBundle &source) { return versusOf(source.versusVersion); });
}

QString buildOriginSummary(const BuildOrigin &origin)
{
    switch (origin.kind) {
    case BuildKind::DebianPackage:
        return origin.suite.isEmpty() ? QStringLiteral("Debian package")
                                      : QStringLiteral("Debian package (%1)").arg(origin.suite);
    case BuildKind::UpstreamBuild:
        return origin.isSourceTree() ? QStringLiteral("source tree %1").arg(sourceTreeName(origin)) : QStringLiteral("upstream build");
    case BuildKind::UserBinary: return QStringLiteral("user binary");
    case BuildKind::Endpoint: return QStringLiteral("endpoint");
    case BuildKind::Unknown: break;
    }
    return QString();
}

QString quantumText(const AllocatorFacts &facts)
{
    if (facts.quantumBytes > 0)
        return QStringLiteral("quantum %1 B").arg(facts.quantumBytes);
    if (!facts.memAllocator.isEmpty() && !facts.memAllocator.startsWith(QLatin1String("jemalloc")))
        return QString();
    return QStringLiteral("quantum unknown");
}

QString buildOriginText(const ServerRun &run)
{
    const BuildOrigin &origin = run.origin;
    switch (origin.kind) {
    case BuildKind::DebianPackage: {
        const QString which = QStringList{origin.suite, origin.packageVersion}.join(QLatin1Char(' ')).trimmed();
        return which.isEmpty() ? QStringLiteral("Debian package") : QStringLiteral("Debian package (%1)").arg(which);
    }
    case BuildKind::UpstreamBuild: {
        QStringList details;
        if (!origin.gitSha.isEmpty())
            details << QStringLiteral("%1 %2").arg(origin.gitBranch, origin.gitSha.left(8)).trimmed();
        if (origin.dirty)
            details << QStringLiteral("dirty");
        if (!origin.sourceSha256.isEmpty())
            details << QStringLiteral("sha256 %1…").arg(origin.sourceSha256.left(8));
        const QString of = origin.source.isEmpty() ? QString() : QStringLiteral(" of ") + origin.source;
        return QStringLiteral("upstream build%1%2")
            .arg(of, details.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(details.join(QStringLiteral(", "))));
    }
    case BuildKind::UserBinary:
        return run.executablePath.isEmpty() ? QStringLiteral("user binary") : QStringLiteral("binary ") + run.executablePath;
    case BuildKind::Endpoint: return QStringLiteral("endpoint");
    case BuildKind::Unknown: break;
    }
    return QString();
}

QString buildProvenance(const ServerRun &run)
{
    QStringList parts;
    parts << buildOriginText(run);
    if (!run.allocatorFacts.memAllocator.isEmpty())
        parts << run.allocatorFacts.memAllocator;
    // A bundle from before the quantum was read says nothing of it rather than "unknown".
    if (run.allocatorFacts != AllocatorFacts())
        parts << quantumText(run.allocatorFacts);
    parts.removeAll(QString());
    return parts.join(QStringLiteral(", "));
}

QString serverBuildProvenance(const ServerRun &run)
{
    QStringList parts;
    // An upstream build's name says so already; an endpoint's names its address.
    if (run.origin.kind == BuildKind::DebianPackage)
        parts << QStringLiteral("Debian package");
    else if (run.origin.kind == BuildKind::UserBinary)
        parts << QStringLiteral("user binary");
    if (!run.buildId.isEmpty() && !isDevelopmentBuild(run))   // a development build's name carries its sha
        parts << QStringLiteral("build %1").arg(run.buildId.left(8));
    if (run.allocatorFacts != AllocatorFacts())
        parts << quantumText(run.allocatorFacts);
    parts.removeAll(QString());
    QString name = serverDisplayName(run);
    if (parts.isEmpty())
        return name;
    // "Valkey 9.1.2 (upstream build, quantum 8 B)": one parenthesis, not two.
    if (name.endsWith(QLatin1Char(')'))) {
        name.chop(1);
        return QStringLiteral("%1, %2)").arg(name, parts.join(QStringLiteral(", ")));
    }
    return QStringLiteral("%1 (%2)").arg(name, parts.join(QStringLiteral(", ")));
}

QString machineProvenance(const MachineInfo &machine, bool withOs)
{
    QString text = machine.cpuModel;
    if (machine.cores > 0)
        text += QStringLiteral(", %1 cores").arg(machine.cores);
    if (withOs && !machine.os.isEmpty())
        text += QStringLiteral(", ") + machine.os;
    return text;
}

QStringList provenanceParts(const ResultsBundle &bundle, const QStringList &serverIds)
{
    QStringList builds;
    for (const QString &id : serverIds) {
        if (const ServerRun *run = bundle.server(id))
            builds << serverBuildProvenance(*run);
    }
    QStringList parts{QStringLiteral("Workload ") + workloadProvenance(bundle), repeatsProvenance(bundle),
                      builds.join(QStringLiteral(", "))};
    if (const QString transport = transportProvenance(bundle, serverIds); !transport.isEmpty())
        parts << transport;
    if (const QString machine = machineProvenance(bundle); !machine.isEmpty())
        parts << machine;
    if (const QString date = dateProvenance(bundle); !date.isEmpty())
        parts << date;
    parts << versusProvenance(bundle);
    return parts;
}
