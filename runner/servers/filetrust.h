#pragma once
// Whether a file Versus would run, or a folder holding one, could have been changed by someone
// else. The rule is ssh's (StrictModes): owned by this user or by root, and writable by neither
// its group nor other users. A folder's ancestors count too, except sticky ones such as /tmp,
// where others can create entries but not rename or remove ours.

#include <QString>

// Empty when `path` (a link is judged by what it names) passes; otherwise why not, naming the
// path, e.g. "/c/valkey-8.0.1/manifest.json is writable by its group (mode 0664)".
QString untrustedFileReason(const QString &path);

// The same for a folder and every folder above it.
QString untrustedFolderReason(const QString &folder);

// Empty when `path`, once links are followed, lies inside `folder`; otherwise why not.
QString outsideFolderReason(const QString &path, const QString &folder);
