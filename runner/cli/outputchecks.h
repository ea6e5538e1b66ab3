#pragma once
// Checks, before anything runs, that every output a command was asked for can be written and
// destroys nothing it was not asked to replace: a missing or read-only folder, an output that
// is one of the command's own inputs (the same file, however it is named: symlinks, "..",
// hard links), are refused with a message that names the option (exit code 2).

#include "outcome.h"
#include <QString>
#include <QStringList>
#include <vector>

// True when both paths name the same existing file (same device and inode).
bool sameFile(const QString &a, const QString &b);

// One input of the command: its option ("--workload") and its path.
struct NamedInput {
    QString option;
    QString path;
};

// `option FILE`: FILE is not a folder; a regular file or a new path needs a folder that exists
// and can be written into (a character device or FIFO is written straight); FILE is none of
// `inputs`.
Status checkOutputFile(const QString &option, const QString &path, const std::vector<NamedInput> &inputs);

// Whether an output folder's files that are already there may be replaced: --force says yes.
// One rule for `versus run --export-dir` and `versus export --export-dir`.
enum class ExistingFiles { Keep, Replace };

// `option DIR`: DIR is a folder that can be written into, or can be created. Each of `names`
// written there must be none of `inputs`, and missing or a regular file: a symbolic link (which
// may point out of the folder) or a device is refused even with --force. With Keep, names that
// exist already are refused (pass --force); `nothing` ends the message: "nothing was written".
Status checkOutputFolder(const QString &option, const QString &dir, const QStringList &names,
                         const std::vector<NamedInput> &inputs, ExistingFiles existing, const QString &nothing);
