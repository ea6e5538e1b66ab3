#include "datacheck.h"

#include <map>

namespace {

// The key count most servers agree on is taken as the expected one.
long long majority(const std::map<long long, int> &votes)
{
    long long best = 0;
    int bestVotes = -1;
    for (const auto &vote : votes) {
        if (vote.second > bestVotes) {
            best = vote.first;
            bestVotes = vote.second;
        }
    }
    return best;
}

} // namespace

QStringList dataCheckProblems(const ResultsBundle &bundle)
{
    QStringList problems;
    // (repeat, type) -> key count -> servers reporting it; "\x01<supported types>" is the overall count.
    std::map<std::pair<int, QString>, std::map<long long, int>> votes;
    auto eachFigure = [&bundle](auto &&visit) {
        for (const ServerRun &server : bundle.servers) {
            if (server.status == QLatin1String("failed"))
                continue;
            for (const RepeatResult &repeat : server.repeats) {
                if (repeat.status != QLatin1String("ok"))
                    continue;
                // The overall count covers only the types a server supports; compare it only
                // between servers that support the same ones.
                QString supported;
                for (const auto &type : repeat.byType) {
                    if (type.second.status == QLatin1String("ok"))
                        supported += type.first + QLatin1Char(',');
                }
                visit(server, repeat.repeat, QStringLiteral("\x01") + supported, repeat.keys);
                for (const auto &type : repeat.byType) {
                    if (type.second.status == QLatin1String("ok"))
                        visit(server, repeat.repeat, type.first, type.second.keys);
                }
            }
        }
    };
    eachFigure([&votes](const ServerRun &, int repeat, const QString &type, long long keys) {
        ++votes[{repeat, type}][keys];
    });
    eachFigure([&](const ServerRun &server, int repeat, const QString &type, long long keys) {
        const auto &counts = votes[{repeat, type}];
        if (counts.size() < 2)
            return;
        const long long expected = majority(counts);
        if (keys != expected) {
            problems << QStringLiteral("%1, repeat %2: %3 keys %4, other servers %5 — it lost or rejected writes")
                            .arg(server.id)
                            .arg(repeat + 1)
                            .arg(type.startsWith(QLatin1Char('\x01')) ? QStringLiteral("all") : type)
                            .arg(keys)
                            .arg(expected);
        }
    });
    return problems;
}
