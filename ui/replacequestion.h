#pragma once
// Asks before an export replaces files: a question listing every file that would be replaced.

#include <QStringList>

class QWidget;

// True when `paths` is empty or the user agrees to replace them. The box's object name is
// "replaceQuestion".
bool confirmReplacing(QWidget *parent, const QStringList &paths);
