#include "sweepoptions.h"

#include "workloadfactory.h"

#include <QFileInfo>

namespace {

// A batch sweep's value: a whole number of events per pipeline, 1..kMostSweptEventsPerBatch.
Status checkSweptBatch(const QString &value)
{
    bool whole = false;
    const int events = value.toInt(&whole);
    if (!whole || events < 1 || events > kMostSweptEventsPerBatch)
        return Error{QStringLiteral("--sweep batch: '%1' is not a whole number of events per pipeline from 1 to %2")
                         .arg(value).arg(kMostSweptEventsPerBatch)};
    return Status::success();
}

} // namespace

Outcome<SweepValues> parseSweep(const QStringList &options, const QString &workload,
                                const std::map<QString, QString> &parameters, bool batchOptionGiven)
{
    if (options.isEmpty())
        return SweepValues();
    if (options.size() > 1)
        return Error{QStringLiteral("--sweep: one parameter at a time, got %1 (%2)")
                         .arg(options.size()).arg(options.join(QStringLiteral(", ")))};
    const QString text = options.first();
    const int equals = text.indexOf(QLatin1Char('='));
    if (equals <= 0)
        return Error{QStringLiteral("--sweep: expected name=value,value,…, got '%1'").arg(text)};
    SweepValues sweep;
    sweep.parameter = text.left(equals).trimmed();
    const QString name = builtInWorkloadNames().contains(workload) ? workload : QFileInfo(workload).fileName();
    const QStringList valid = workloadParameterNames(builtInWorkloadNames().contains(workload) ? workload : QString());
    const bool batch = sweep.parameter == batchSweepParameter();
    if (batch && batchOptionGiven)
        return Error{QStringLiteral("--sweep batch and --batch: both give the events per pipeline; give one of them")};
    if (!batch && !valid.contains(sweep.parameter))
        return Error{QStringLiteral("--sweep: unknown parameter '%1' of %2 (%3)")
                         .arg(sweep.parameter, name,
                              QStringLiteral("valid: ") + (valid + QStringList{batchSweepParameter()}).join(QStringLiteral(", ")))};
    if (parameters.count(sweep.parameter))
        return Error{QStringLiteral("--sweep %1: also given as --set %1=%2; give it one way")
                         .arg(sweep.parameter, parameters.at(sweep.parameter))};
    for (const QString &raw : text.mid(equals + 1).split(QLatin1Char(','))) {
        const QString value = raw.trimmed();
        if (batch) {
            if (Status checked = checkSweptBatch(value); !checked)
                return Error{checked.error()};
        }
        bool number = false;
        value.toDouble(&number);
        if (!number)
            return Error{QStringLiteral("--sweep %1: '%2' is not a number").arg(sweep.parameter, value)};
        if (sweep.values.contains(value))
            return Error{QStringLiteral("--sweep %1: %2 is given twice").arg(sweep.parameter, value)};
        sweep.values << value;
    }
    if (sweep.values.size() < 2)
        return Error{QStringLiteral("--sweep %1: a sweep needs at least two values, got one (%2)")
                         .arg(sweep.parameter, sweep.values.join(QString()))};
    return sweep;
}

namespace {

// The value of the swept parameter as the workload read it ("016" is read as 16), or as given when
// the workload does not say.
QString valueAsRead(const Workload &workload, const QString &parameter, const QString &given)
{
    const auto own = workload.describe().parameters;
    const auto found = own.find(parameter);
    return found == own.end() ? given : found->second;
}

// One workload for every depth: the points differ only in events per pipeline. A depth given
// twice ("16,016") is refused, as a workload parameter's would be.
Outcome<SweepRequest> batchSweepRequest(const SweepValues &sweep, const std::map<QString, QString> &parameters,
                                        const WorkloadMaker &make)
{
    Outcome<std::shared_ptr<Workload>> workload = make(parameters);
    if (!workload)
        return Error{QStringLiteral("--sweep batch: %1").arg(workload.error())};
    SweepRequest request;
    request.parameter = sweep.parameter;
    request.defaultValue = QString::number(RunRequest().eventsPerBatch);
    std::map<int, QString> givenByDepth;
    for (const QString &value : sweep.values) {
        const int depth = value.toInt();
        if (const auto earlier = givenByDepth.find(depth); earlier != givenByDepth.end())
            return Error{QStringLiteral("--sweep batch: %1 and %2 are the same depth (%3 events per pipeline): give each once")
                             .arg(value, earlier->second).arg(depth)};
        givenByDepth[depth] = value;
        request.points.push_back({value, workload.value(), depth});
    }
    return request;
}

} // namespace

Outcome<SweepRequest> sweepRequest(const SweepValues &sweep, const std::map<QString, QString> &parameters,
                                   const WorkloadMaker &make)
{
    SweepRequest request;
    request.parameter = sweep.parameter;
    if (sweep.parameter == batchSweepParameter())
        return batchSweepRequest(sweep, parameters, make);
    std::map<QString, QString> givenByValueRead;   // "16" -> "016": two spellings of one value run it twice
    for (const QString &value : sweep.values) {
        std::map<QString, QString> at = parameters;
        at[sweep.parameter] = value;
        Outcome<std::shared_ptr<Workload>> workload = make(at);
        if (!workload)
            return Error{QStringLiteral("--sweep %1=%2: %3").arg(sweep.parameter, value, workload.error())};
        const QString read = valueAsRead(*workload.value(), sweep.parameter, value);
        if (const auto earlier = givenByValueRead.find(read); earlier != givenByValueRead.end())
            return Error{QStringLiteral("--sweep %1: %2 and %3 are the same value (the workload reads both as %4): give each once")
                             .arg(sweep.parameter, value, earlier->second, read)};
        givenByValueRead[read] = value;
        request.points.push_back({value, workload.value()});
    }
    // The workload's own value, which it describes even when the parameter was not given.
    Outcome<std::shared_ptr<Workload>> plain = make(parameters);
    if (plain) {
        const auto own = plain.value()->describe().parameters;
        const auto found = own.find(sweep.parameter);
        if (found != own.end())
            request.defaultValue = found->second;
    }
    return request;
}
