#pragma once
// One version folder of the server cache, as scripts/fetch-servers wrote it: manifest.json,
// bin/ and lib/. Nothing in it is run unless
//   - the cache folder (and the folders above it), the version folder, its manifest and every
//     file the command runs are owned by this user (or root) and writable by nobody else;
//   - the command runs only files inside the folder, and the manifest's "files" block records
//     the sha256 of each of them (loader, server binary, libraries), which they still have.
// A folder verified before whose files have the same fingerprints (verifiedrecords.h) is
// neither hashed nor run again: its identity is what --version printed then.

#include "servercatalog.h"

class VerifiedRecords;

// The entry for `folder`; its `problem` says why it cannot be used, naming the path at fault.
// `cacheProblem` is why the cache folder itself is refused (then nothing is read).
CatalogEntry entryFromCacheFolder(const QString &folder, const QString &cacheProblem, VerifiedRecords &records);
