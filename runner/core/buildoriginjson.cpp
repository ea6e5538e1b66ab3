#include "buildoriginjson.h"

namespace {

// The text fields in the order they are written.
const std::pair<const char *, QString BuildOrigin::*> kTextFields[] = {
    {"suite", &BuildOrigin::suite},
    {"package_version", &BuildOrigin::packageVersion},
    {"source", &BuildOrigin::source},
    {"source_sha256", &BuildOrigin::sourceSha256},
    {"git_sha", &BuildOrigin::gitSha},
    {"git_branch", &BuildOrigin::gitBranch},
};

} // namespace

Json buildOriginToJson(const BuildOrigin &origin)
{
    Json object = Json::object();
    if (origin == BuildOrigin())
        return object;
    object["origin"] = buildKindName(origin.kind);
    for (const auto &[key, field] : kTextFields) {
        if (!(origin.*field).isEmpty())
            object[key] = origin.*field;
    }
    if (origin.dirty)
        object["dirty"] = true;
    if (!origin.makeVariables.isEmpty())
        object["make_variables"] = origin.makeVariables;
    if (!origin.compiler.isEmpty())
        object["compiler"] = origin.compiler;
    return object;
}

void buildOriginFromJson(const Json &json, BuildOrigin &origin)
{
    requireObject(json);
    origin = BuildOrigin();
    QString kind;
    readOptional(json, "origin", kind);
    origin.kind = buildKindFromName(kind);
    for (const auto &[key, field] : kTextFields)
        readOptional(json, key, origin.*field);
    readOptional(json, "dirty", origin.dirty);
    readOptional(json, "make_variables", origin.makeVariables);
    readOptional(json, "compiler", origin.compiler);
}
