#pragma once
// A server's release notes (Valkey's and Redis's 00-RELEASENOTES): one section per version,
// headed "Valkey 8.0.1  -  Released Tue 1 Oct 2024" or "Valkey 8.0.0 GA - …", holding bullet
// lines ("* Fix …", continued on indented lines). Versus keeps the bullets with the version of
// their section; the figures layer lists those naming a changed command as candidates, not
// causes (figuresreleasenotes.cpp). A file of any size or content is read within bounds: at
// most releaseNotesByteCap bytes, releaseNotesEntryCap entries, each cut at
// releaseNoteTextCap characters, and `capped` says where reading stopped.

#include "outcome.h"

#include <QByteArray>
#include <QString>
#include <QVersionNumber>
#include <vector>

struct BuildOrigin;

constexpr qint64 releaseNotesByteCap = 2 * 1024 * 1024;
constexpr int releaseNotesEntryCap = 4000;
constexpr int releaseNoteTextCap = 600;

struct ReleaseNoteEntry {
    QString version;   // "8.0.1", "8.0.0-rc2": the section it is from
    QString text;      // the bullet, its lines joined, without the bullet mark
};

struct ReleaseNotes {
    QString source;    // where they were read: "00-RELEASENOTES of valkey-8.0.1.tar.gz"; empty: none at hand
    std::vector<ReleaseNoteEntry> entries;
    QString capped;    // why reading stopped before the end ("the first 2097152 bytes of 5000000"); empty: read whole

    bool atHand() const { return !source.isEmpty(); }
};

// The notes in `text`, every bullet of every version section, in file order. `source` names
// them. A text holding a NUL byte is no release notes and gives no entries.
ReleaseNotes parseReleaseNotes(const QByteArray &text, const QString &source);
// The file at `path`, read within releaseNotesByteCap (a larger file is read up to it and
// marked capped). An error names the file: missing, not a regular file, not text.
Outcome<ReleaseNotes> readReleaseNotes(const QString &path, const QString &source);
// Leaves out the entries of `version` and before: a run compares nothing older than its oldest.
void keepReleaseNotesAfter(ReleaseNotes &notes, const QVersionNumber &version);
// The notes that came with a server's build (buildorigin.h): an upstream build's source (a
// tree's own 00-RELEASENOTES, a tarball's in the server cache's build tree of its version
// when that tree holds the same source), or, beside a binary, a 00-RELEASENOTES one folder
// up. None at hand (no source) otherwise; a Debian package ships none in the cache.
ReleaseNotes releaseNotesOfBuild(const BuildOrigin &origin, const QString &binaryPath, const QString &product,
                                 const QString &version, const QString &cacheRoot);
