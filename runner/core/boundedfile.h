#pragma once
// Reading a whole input file Versus parses (a results bundle, a manifest, an attribute file),
// bounded before the first byte is read: only a regular file is read (a FIFO would hang the
// open or the read, /dev/zero never ends), and only up to a stated limit (a 1 GB file is refused
// by its size, not after it has been read into memory). Qt resource paths (":/…") are read as
// they are: they are part of the program.

#include "outcome.h"
#include <QByteArray>
#include <QString>

// The whole of `path`. `what` names the kind of file in the messages ("a results bundle"):
// "x.json: not a regular file (a FIFO); a results bundle is read only from a regular file",
// "x.json: 1073741824 bytes, more than the 67108864 (64 MiB) a results bundle may have".
Outcome<QByteArray> readBoundedFile(const QString &path, qint64 limit, const QString &what);

// A descriptor open for reading on `path` (close-on-exec) when it is a regular file (a link
// counts as what it names), without ever waiting on a FIFO or opening a device: the caller
// closes it. The error names the path and what it is instead, as readBoundedFile's does.
Outcome<int> openRegularFile(const QString &path, const QString &what);
