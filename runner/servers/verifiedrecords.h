#pragma once
// What the catalog verified before, so that listing the servers runs nothing and hashes nothing
// that has not changed since. Kept in <cache>/.verified.json, a file of this user's (mode 0600):
// for each entry (a cache folder, or a binary on PATH) the fingerprint of every file it runs
// (size, modification and change times in nanoseconds, inode, device), their sha256 and what
// `--version` printed. An entry counts as verified only while every fingerprint is the same:
// a file replaced or rewritten changes its change time (ctime), which no user can set back.

#include "outcome.h"

#include <QString>
#include <QStringList>
#include <map>
#include <optional>

struct FileFingerprint {
    qint64 size = -1;
    qint64 modifiedNs = 0;
    qint64 changedNs = 0;
    qint64 inode = 0;
    qint64 device = 0;

    // The file as it is now; nullopt when it cannot be read.
    static std::optional<FileFingerprint> of(const QString &path);
    bool operator==(const FileFingerprint &other) const;
    bool operator!=(const FileFingerprint &other) const { return !(*this == other); }
};

// The sha256 of a file in hex; empty when it cannot be read.
QString sha256OfFile(const QString &path);

struct VerifiedEntry {
    std::map<QString, FileFingerprint> fingerprints;   // absolute path -> as verified
    std::map<QString, QString> sha256;                  // absolute path -> its sha256 then
    QString versionOutput;                              // what --version printed then
};

class VerifiedRecords {
public:
    // Empty `path`: nothing is remembered (every listing verifies again).
    explicit VerifiedRecords(QString path = QString());

    // Reads the file; a missing, foreign or corrupt one is an empty record (and is replaced).
    void load();
    // Writes the records when they changed. Errors name the file.
    Status save();

    // The entry recorded for `key`, when every file in `paths` still has its recorded fingerprint
    // (and no other file was recorded for it).
    const VerifiedEntry *unchanged(const QString &key, const QStringList &paths) const;
    void remember(const QString &key, VerifiedEntry entry);
    void forget(const QString &key);

    QString path() const { return m_path; }

private:
    QString m_path;
    std::map<QString, VerifiedEntry> m_entries;
    bool m_changed = false;
};
