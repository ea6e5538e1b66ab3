#pragma once
// Writes a whole file so that readers see either the old file or the new one, never half.

#include "outcome.h"
#include <QByteArray>
#include <QString>

// Temporary file in the same folder, then rename. Errors name the path.
Status writeFileAtomically(const QString &path, const QByteArray &content);
