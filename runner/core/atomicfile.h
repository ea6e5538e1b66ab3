#pragma once
// Writes files so that nothing else is destroyed.
//
// - A regular file, or a path that does not exist yet, is replaced atomically: the bytes go
//   to "<name>.versus-tmp.XXXXXX" in the same folder, then a rename puts them in place, so a
//   reader sees the old file or the new one, never half (the old file's permissions are kept;
//   a symlink stays a link and its target is replaced).
// - A character device (/dev/null, /dev/full, a terminal) or a FIFO is written straight, never
//   replaced: renaming over it would destroy the node. A FIFO nobody reads is an error, not a wait.
// - Anything else (a folder, a block device, a socket) is refused.
// - A file Versus names itself inside a folder (an export folder's charts and report, the
//   cache's records, the state folder's markers: PathOrigin::NamedByVersus) is replaced only
//   when it is a regular file or missing. A symlink there may point anywhere, out of the folder,
//   so it is refused, and left alone with what it points to; so are devices and FIFOs.
//
// The temporary file is held with an exclusive flock() while it is written. A process killed
// mid-write (even by SIGKILL) loses the lock, so the next write to that path knows the file is
// stale and removes it (removeStaleTempFiles); a file another live process is writing is locked
// and left alone. Errors name the path.

#include "outcome.h"
#include <QByteArray>
#include <QString>
#include <cstddef>

// Who named the path: the user (--out FILE, a file dialog) or Versus (a name in a folder).
enum class PathOrigin { NamedByUser, NamedByVersus };

class AtomicFileWriter {
public:
    AtomicFileWriter() = default;
    ~AtomicFileWriter();   // an uncommitted write is abandoned: the target is left as it was
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    Status open(const QString &path, PathOrigin origin = PathOrigin::NamedByUser);
    Status write(const char *data, size_t size);
    Status write(const QByteArray &bytes) { return write(bytes.constData(), size_t(bytes.size())); }
    // Flushes to disk and puts the file in place; after an error the target is unchanged.
    Status commit();
    // Gives up: removes the temporary file (or stops writing the device).
    void abandon();
    // True when the target is written straight (a character device or a FIFO).
    bool direct() const { return m_direct; }

private:
    Error failure(const QString &reason);

    QString m_path;       // as given, for messages
    QString m_target;     // the file replaced (a symlink resolved)
    QString m_tempPath;   // empty when writing straight
    int m_fd = -1;
    unsigned m_mode = 0;
    bool m_direct = false;
};

// Whether Versus may replace `path`, a name it chose in a folder (PathOrigin::NamedByVersus):
// missing or a regular file. The error names the path and what it is (a symbolic link, with
// its target; a folder; another kind of file).
Status checkReplaceableByVersus(const QString &path);

// The whole of `content` into `path`, as above.
Status writeFileAtomically(const QString &path, const QByteArray &content, PathOrigin origin = PathOrigin::NamedByUser);

// Removes the "<name>.versus-tmp.XXXXXX" files next to `target` (the same name only) left by
// writers that were killed: regular files owned by this user, last written before this call,
// that no process holds locked. Returns how many were removed. A user's "b.json.backup" never
// matches: the marker is Versus's own.
int removeStaleTempFiles(const QString &target);
// True when `fileName` has the temporary files' name pattern.
bool isAtomicTempName(const QString &fileName);
