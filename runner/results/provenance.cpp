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

QString repeatsProvenance(const ResultsBundle &bundle)
{
    const QString schedule = bundle.schedule == Schedule::Fair ? QStringLiteral("fair schedule")
                                                               : QStringLiteral("concurrent schedule");
    const QString repeats = bundle.repeats > 1 ? QStringLiteral("median of %1 repeats").arg(bundle.repeats)
                                               : QStringLiteral("one run");
    return repeats + QStringLiteral(", ") + schedule;
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
    QStringList parts{QStringLiteral("Workload ") + workloadProvenance(bundle.workload), repeatsProvenance(bundle),
                      builds.join(QStringLiteral(", "))};
    if (const QString machine = machineProvenance(bundle.machine); !machine.isEmpty())
        parts << machine;
    if (bundle.created.isValid())
        parts << bundle.created.toUTC().toString(QStringLiteral("yyyy-MM-dd"));
    parts << QStringLiteral("Versus %1").arg(bundle.versusVersion.isEmpty() ? QStringLiteral("?") : bundle.versusVersion);
    return parts;
}
