#pragma once
// A server's release notes (releasenotes.h) <-> the bundle's "release_notes" member
// (docs/BUNDLE.md): {"source": "00-RELEASENOTES of valkey-8.0.1.tar.gz", "capped": "…",
// "entries": [{"version": "8.0.1", "text": "Fix …"}]}.

#include "figures.h"
#include "jsonsupport.h"
#include "releasenotes.h"

Json releaseNotesToJson(const ReleaseNotes &notes);
// Reads object["release_notes"] when present, within the parser's caps: entries past
// releaseNotesEntryCap are left out and said in `capped`, each text cut at releaseNoteTextCap.
void releaseNotesFromJson(const Json &object, ReleaseNotes &out);

// The derived section "release_note_candidates" (docs/BUNDLE.md): Figures::releaseNoteCandidates()
// as [{"server", "baseline", "command", "type", "change_percent", "notes_of", "source", "capped",
// "unavailable", "entries": [{"version", "text", "names"}]}]; empty when no command changed.
Json releaseNoteCandidatesToJson(const Figures &figures);
