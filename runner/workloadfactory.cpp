#include "workloadfactory.h"

Outcome<std::shared_ptr<Workload>> makeWorkload(const QString &nameOrFile, const std::map<QString, QString> &,
                                                const QString &, long long, bool)
{
    return Error{QStringLiteral("workload '%1': not built yet").arg(nameOrFile)};
}

QStringList workloadParameterNames(const QString &)
{
    return {};
}

QStringList builtInWorkloadNames()
{
    return {QStringLiteral("ecommerce"), QStringLiteral("hash-ttl")};
}
