#include "profilejson.h"

#include <climits>

namespace {

// A count of the profile: a whole number from 0 to 2^63 − 1, or the load fails naming `field`.
long long profileCount(const Json &json, const std::string &field)
{
    if (!json.is_number_integer())
        failAtJson(json, "profile: " + field + " is " + json.type_name() + ", not a whole number");
    if (json.is_number_unsigned() && json.get<unsigned long long>() > (unsigned long long)(LLONG_MAX))
        failAtJson(json, "profile: " + field + " passes 2^63 − 1");
    const long long count = json.get<long long>();
    if (count < 0)
        failAtJson(json, "profile: " + field + " is negative");
    return count;
}

long long optionalProfileCount(const Json &object, const char *key)
{
    const auto found = object.find(key);
    return found == object.end() ? 0 : profileCount(*found, key);
}

} // namespace

Json profileToJson(const ServerProfile &profile)
{
    if (!profile.recorded())
        return Json{{"unavailable", profile.unavailable.toStdString()}};
    Json samples = Json::object();
    for (const auto &[category, count] : profile.samples)
        samples[profileCategoryId(category).toStdString()] = count;
    return Json{{"samples", samples},
                {"total_samples", profile.totalSamples},
                {"binary_samples", profile.binarySamples},
                {"binary_named", profile.binaryNamed},
                {"binary", profile.binaryName.toStdString()},
                {"rate_hz", profile.rateHz},
                {"user_only", profile.userOnly}};
}

void readProfile(const Json &object, ServerProfile &out)
{
    const auto found = object.find("profile");
    if (found == object.end())
        return;
    requireObject(*found);
    const Json &json = *found;
    readOptional(json, "unavailable", out.unavailable);
    readOptional(json, "binary", out.binaryName);
    readOptional(json, "user_only", out.userOnly);
    if (const auto samples = json.find("samples"); samples != json.end()) {
        requireObject(*samples);
        for (const auto &[id, count] : samples->items()) {
            ProfileCategory category;
            if (!profileCategoryFromId(QString::fromStdString(id), category))
                failAtJson(*samples, "profile: samples holds an unknown category \"" + id + "\"");
            const long long value = profileCount(count, "samples." + id);
            if (value > 0)
                out.samples[category] = value;
        }
    }
    out.totalSamples = optionalProfileCount(json, "total_samples");
    out.binarySamples = optionalProfileCount(json, "binary_samples");
    out.binaryNamed = optionalProfileCount(json, "binary_named");
    const long long rate = optionalProfileCount(json, "rate_hz");
    if (rate > 1000000)
        failAtJson(json.at("rate_hz"), "profile: rate_hz is no sampling rate perf takes");
    out.rateHz = int(rate);
    if (const QString problem = out.problem(); !problem.isEmpty())
        failAtJson(json, "profile: " + problem.toStdString());
}
