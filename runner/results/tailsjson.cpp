#include "tailsjson.h"

#include <climits>

namespace {

// One command's buckets, or why they are none.
QString readBuckets(const Json &json, LatencyBuckets &out)
{
    if (!json.is_array())
        return QStringLiteral("its buckets are %1, not a list").arg(QString::fromUtf8(json.type_name()));
    for (const Json &bucket : json) {
        if (!bucket.is_array() || bucket.size() != 2 || !bucket[0].is_number_integer() || !bucket[1].is_number_integer())
            return QStringLiteral("a bucket is not [bound, calls] in whole numbers");
        for (const Json &number : bucket) {
            if (number.is_number_unsigned() && number.get<unsigned long long>() > (unsigned long long)(LLONG_MAX))
                return QStringLiteral("a bucket passes 2^63 − 1");
        }
        out.counts.emplace_back(bucket[0].get<long long>(), bucket[1].get<long long>());
    }
    return out.problem();
}

} // namespace

Json tailsToJson(const ServerTails &tails)
{
    Json byCommand = Json::object();
    for (const auto &[command, buckets] : tails.byCommand) {
        Json list = Json::array();
        for (const auto &[bound, count] : buckets.counts)
            list.push_back(Json::array({bound, count}));
        byCommand[command.toStdString()] = list;
    }
    Json json = {{"by_command", byCommand}};
    if (!tails.commandUnavailable.empty()) {
        Json reasons = Json::object();
        for (const auto &[command, reason] : tails.commandUnavailable)
            reasons[command.toStdString()] = reason.toStdString();
        json["command_unavailable"] = reasons;
    }
    if (!tails.unavailable.isEmpty())
        json["unavailable"] = tails.unavailable.toStdString();
    return json;
}

void readTails(const Json &object, ServerTails &out)
{
    const auto found = object.find("server_tails");
    if (found == object.end() || !found->is_object())
        return;
    if (const auto reason = found->find("unavailable"); reason != found->end() && reason->is_string())
        out.unavailable = QString::fromStdString(reason->get<std::string>());
    if (const auto reasons = found->find("command_unavailable"); reasons != found->end() && reasons->is_object()) {
        for (const auto &[command, reason] : reasons->items()) {
            if (reason.is_string())
                out.commandUnavailable[QString::fromStdString(command)] = QString::fromStdString(reason.get<std::string>());
        }
    }
    const auto byCommand = found->find("by_command");
    if (byCommand == found->end() || !byCommand->is_object())
        return;
    for (const auto &[name, json] : byCommand->items()) {
        const QString command = QString::fromStdString(name);
        LatencyBuckets buckets;
        if (const QString problem = readBuckets(json, buckets); !problem.isEmpty())
            out.commandUnavailable[command] = QStringLiteral("the bundle's buckets are no possible reading: %1").arg(problem);
        else
            out.byCommand[command] = std::move(buckets);
    }
}
