#pragma once
// Hash field TTL against plain keys (DESIGN.md, study 2). Event i writes key i in each of
// three patterns, each typed by its pattern name; the engine replays one pattern at a time
// (WorkloadInfo::typesTimedAlone: the patterns reuse key names):
//   hsetex        HSETEX user:<i> EX <ttl> FIELDS 1 auth_token <value>
//   set-ex        SET user:<i>:auth_token <value> EX <ttl>
//   hset-hexpire  HSET user:<i> auth_token <value>, then HEXPIRE user:<i> <ttl> FIELDS 1 auth_token
// i runs from 0 to keys-1; values are printable, exactly value-size bytes, the same every pass.
// With hash-tag=user the user part is a cluster hash tag (user:{<i>}, user:{<i>}:auth_token):
// a user's keys share a slot; without it (hash-tag=none, the default) they are hashed whole.

#include "workload.h"
#include <QStringList>

struct HashTtlParameters {
    long long keys = 20000;
    long long valueSize = 120;
    long long ttl = 900;
    bool hashTagPerUser = false;   // hash-tag=user
};

class HashTtlWorkload : public Workload {
public:
    explicit HashTtlWorkload(const HashTtlParameters &parameters) : m_parameters(parameters) {}

    // Applies `--set` style name=value pairs over the defaults. Unknown names and values out
    // of range are errors naming the parameter and listing the valid ones.
    static Outcome<HashTtlParameters> parseParameters(const std::map<QString, QString> &values);
    static QStringList parameterNames();   // keys, value-size, ttl, hash-tag
    static QStringList patternNames();     // hsetex, set-ex, hset-hexpire

    WorkloadInfo describe() const override;
    Outcome<std::unique_ptr<CommandSource>> open() const override;


private:
    HashTtlParameters m_parameters;
};
