// Release-note candidates (figuresreleasenotes.cpp): for a command whose time changed beyond the
// noise rule, the entries of the newer version's notes since the older one naming it or its type;
// none where the notes are not at hand, none for a command no entry names.

#include "bundlebuilders.h"
#include "figures.h"
#include "fixturebundle.h"
#include "releasenotesmarkdown.h"

#include <QtTest>

namespace {

// real-ecommerce.json with Valkey 9.1.2's time per command in each repeat that of 8.0.1 times
// ratios[r] (every command), and the fixture's release notes given to 9.1.2.
ResultsBundle candidatesBundle(const std::vector<double> &ratios, bool withNotes)
{
    ResultsBundle bundle = BundleBuilders::withPairedTimes(fixtureBundle("real-ecommerce.json"), ratios);
    ServerRun &newer = bundle.servers[1];
    if (withNotes) {
        const Outcome<ReleaseNotes> notes = readReleaseNotes(QStringLiteral(VERSUS_FIXTURES "/releasenotes/00-RELEASENOTES"),
                                                             QStringLiteral("00-RELEASENOTES of the fixture"));
        if (notes)
            newer.releaseNotes = notes.value();
    }
    return bundle;
}

const ReleaseNoteCandidates *candidatesFor(const std::vector<ReleaseNoteCandidates> &all, const QString &command)
{
    for (const ReleaseNoteCandidates &candidates : all) {
        if (candidates.command == command)
            return &candidates;
    }
    return nullptr;
}

} // namespace

class TestReleaseNoteCandidates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every command's time changed beyond noise (paired, resolved): each is listed with the
    // entries after 8.0.1 up to 9.1.2 naming it or its type, and only those.
    void exactCandidates()
    {
        const Figures figures(candidatesBundle({0.96, 0.97, 0.98}, true));
        const std::vector<ReleaseNoteCandidates> all = figures.releaseNoteCandidates();
        QStringList commands;
        for (const ReleaseNoteCandidates &candidates : all) {
            commands << candidates.command;
            QCOMPARE(candidates.serverId, QStringLiteral("valkey-9.1.2"));
            QCOMPARE(candidates.baselineId, QStringLiteral("valkey-8.0.1"));
            QCOMPARE(candidates.notesOf, QStringLiteral("valkey-9.1.2"));
            QCOMPARE(candidates.source, QStringLiteral("00-RELEASENOTES of the fixture"));
            QCOMPARE(candidates.unavailable, QString());
        }
        QCOMPARE(commands, QStringList({"EXPIRE", "INCRBY", "SET", "ZADD", "HINCRBY", "ZREMRANGEBYSCORE", "PFADD", "SISMEMBER"}));
        const auto texts = [&all](const QString &command) {
            QStringList listed;
            for (const ReleaseNoteCandidate &entry : candidatesFor(all, command)->entries)
                listed << entry.version + QLatin1Char('|') + entry.names + QLatin1Char('|') + entry.text;
            return listed;
        };
        // By type; 8.0.1's own entry naming HSET is not between the two versions.
        QCOMPARE(texts(QStringLiteral("HINCRBY")),
                 QStringList({"9.0.0|hash|Hash field expiration: HSETEX, HGETEX and HEXPIRE. (#1800)",
                              "9.0.0|hash|Embed hash fields in the dict entry to save memory. (#1801)"}));
        QCOMPARE(texts(QStringLiteral("ZADD")),
                 QStringList({"9.1.0|sorted set|Faster `ZREMRANGEBYRANK` on long sorted sets by trimming the skiplist in one pass. (#2001)"}));
        // By the command's own name.
        QCOMPARE(texts(QStringLiteral("PFADD")), QStringList({"9.1.0|PFADD|PFADD is faster on sparse HyperLogLogs. (#2003)"}));
        // None invented: SET is inside HSETEX, not a word of it; nothing names SISMEMBER or EXPIRE.
        QCOMPARE(texts(QStringLiteral("SET")), QStringList());
        QCOMPARE(texts(QStringLiteral("SISMEMBER")), QStringList());
        QCOMPARE(texts(QStringLiteral("EXPIRE")), QStringList());
        QCOMPARE(candidatesFor(all, QStringLiteral("EXPIRE"))->type, QString());
        QCOMPARE(candidatesFor(all, QStringLiteral("ZADD"))->type, QStringLiteral("sorted set"));
    }

    // Without notes at hand nothing is listed, and every view says so.
    // A command is named as the notes write commands, in capitals and on its own: not the verb
    // "set", not "a set", not SENTINEL's subcommand SET. Entries of Valkey 9.1's real notes that
    // were listed for SET, and one that names it.
    void commandsAreNamedInCapitalsAndAlone()
    {
        ResultsBundle bundle = candidatesBundle({0.96, 0.97, 0.98}, true);
        std::vector<ReleaseNoteEntry> &entries = bundle.servers[1].releaseNotes.entries;
        entries.insert(entries.begin(),
                       {{QStringLiteral("9.1.0"), QStringLiteral("Fix(syncio): Set errno on EOF in syncRead and propagate to conn->last (#3580)")},
                        {QStringLiteral("9.1.0"), QStringLiteral("Reject control characters in `SENTINEL SET` values to prevent config-file "
                                                                 "injection via Sentinel config rewrite (#3847)")},
                        {QStringLiteral("9.1.0"), QStringLiteral("`COMMAND INFO` in RESP3 now returns the subcommands field as an array "
                                                                 "instead of a set (#3939)")},
                        {QStringLiteral("9.1.0"), QStringLiteral("Add logging helper function to print node's ip:port when nodename not "
                                                                 "explicitly set (#2777)")},
                        {QStringLiteral("9.1.0"), QStringLiteral("`SET` and `GET` reply faster for small values (#3001)")}});
        const std::vector<ReleaseNoteCandidates> all = Figures(bundle).releaseNoteCandidates();
        QStringList listed;
        for (const ReleaseNoteCandidate &entry : candidatesFor(all, QStringLiteral("SET"))->entries)
            listed << entry.version + QLatin1Char('|') + entry.names + QLatin1Char('|') + entry.text;
        QCOMPARE(listed, QStringList({"9.1.0|SET|`SET` and `GET` reply faster for small values (#3001)"}));
    }

    void noneWithoutNotes()
    {
        const Figures figures(candidatesBundle({0.96, 0.97, 0.98}, false));
        const std::vector<ReleaseNoteCandidates> all = figures.releaseNoteCandidates();
        QCOMPARE(int(all.size()), 8);
        for (const ReleaseNoteCandidates &candidates : all) {
            QVERIFY(candidates.entries.empty());
            QCOMPARE(candidates.unavailable, QStringLiteral("no release notes at hand for Valkey 9.1.2"));
        }
        QVERIFY(releaseNotesMarkdown(figures, QStringLiteral("##"))
                    .contains(QStringLiteral("**SET: Valkey 9.1.2 −2.0% against Valkey 8.0.1.** No release notes at hand for Valkey 9.1.2.")));
    }

    // A change the repeats do not resolve is no change to explain: no candidates, no section.
    void noneWithinNoise()
    {
        const Figures figures(candidatesBundle({0.95, 0.98}, true));
        QVERIFY(figures.releaseNoteCandidates().empty());
        QCOMPARE(releaseNotesMarkdown(figures, QStringLiteral("##")), QString());
    }
};

QTEST_GUILESS_MAIN(TestReleaseNoteCandidates)
#include "tst_releasenotecandidates.moc"
