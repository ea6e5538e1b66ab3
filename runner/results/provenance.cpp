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

QString serverBuildProvenance(const ServerRun &run)
{
    const QString name = serverDisplayName(run);
    if (run.buildId.isEmpty() || isDevelopmentBuild(run))
        return name;   // a development build's name already carries its sha
    return QStringLiteral("%1 (build %2)").arg(name, run.buildId.left(8));
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
    if (const QString machine = machineProvenance(bundle); !machine.isEmpty())
        parts << machine;
    if (const QString date = dateProvenance(bundle); !date.isEmpty())
        parts << date;
    parts << versusProvenance(bundle);
    return parts;
}
