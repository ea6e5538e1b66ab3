#include "releasenotesjson.h"

Json releaseNotesToJson(const ReleaseNotes &notes)
{
    Json entries = Json::array();
    for (const ReleaseNoteEntry &entry : notes.entries)
        entries.push_back({{"version", entry.version}, {"text", entry.text}});
    Json json = {{"source", notes.source}};
    if (!notes.capped.isEmpty())
        json["capped"] = notes.capped;
    json["entries"] = entries;
    return json;
}

void releaseNotesFromJson(const Json &object, ReleaseNotes &out)
{
    const auto found = object.find("release_notes");
    if (found == object.end())
        return;
    requireObject(*found);
    readOptional(*found, "source", out.source);
    readOptional(*found, "capped", out.capped);
    const auto entries = found->find("entries");
    if (entries == found->end())
        return;
    requireArray(*entries);
    for (const Json &item : *entries) {
        if (int(out.entries.size()) >= releaseNotesEntryCap) {
            out.capped = QStringLiteral("the first %1 entries").arg(releaseNotesEntryCap);
            break;
        }
        requireObject(item);
        ReleaseNoteEntry entry;
        readOptional(item, "version", entry.version);
        readOptional(item, "text", entry.text);
        entry.text.truncate(releaseNoteTextCap);
        out.entries.push_back(std::move(entry));
    }
}

Json releaseNoteCandidatesToJson(const Figures &figures)
{
    Json all = Json::array();
    for (const ReleaseNoteCandidates &candidates : figures.releaseNoteCandidates()) {
        Json entries = Json::array();
        for (const ReleaseNoteCandidate &entry : candidates.entries)
            entries.push_back({{"version", entry.version}, {"text", entry.text}, {"names", entry.names}});
        all.push_back({{"server", candidates.serverId},
                       {"baseline", candidates.baselineId},
                       {"command", candidates.command},
                       {"type", candidates.type},
                       {"change_percent", candidates.change ? Json(*candidates.change) : Json()},
                       {"notes_of", candidates.notesOf},
                       {"source", candidates.source},
                       {"capped", candidates.capped},
                       {"unavailable", candidates.unavailable},
                       {"entries", entries}});
    }
    return all;
}
