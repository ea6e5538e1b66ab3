#include "buildorigin.h"

#include <array>
#include <utility>

namespace {

const std::array<std::pair<BuildKind, const char *>, 5> kNames{{
    {BuildKind::Unknown, "unknown"},
    {BuildKind::DebianPackage, "debian-package"},
    {BuildKind::UpstreamBuild, "upstream-build"},
    {BuildKind::UserBinary, "user-binary"},
    {BuildKind::Endpoint, "endpoint"},
}};

} // namespace

QString buildKindName(BuildKind kind)
{
    for (const auto &[known, name] : kNames) {
        if (known == kind)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("unknown");
}

BuildKind buildKindFromName(const QString &name)
{
    for (const auto &[kind, known] : kNames) {
        if (name == QLatin1String(known))
            return kind;
    }
    return BuildKind::Unknown;
}

bool BuildOrigin::operator==(const BuildOrigin &other) const
{
    return kind == other.kind && suite == other.suite && packageVersion == other.packageVersion && source == other.source
           && sourceSha256 == other.sourceSha256 && gitSha == other.gitSha && gitBranch == other.gitBranch
           && dirty == other.dirty && makeVariables == other.makeVariables && compiler == other.compiler;
}

bool AllocatorFacts::operator==(const AllocatorFacts &other) const
{
    return memAllocator == other.memAllocator && quantumBytes == other.quantumBytes && quantumProblem == other.quantumProblem;
}
