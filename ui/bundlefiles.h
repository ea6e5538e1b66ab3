#pragma once
// Choosing, reading and writing results bundles from the window (file dialogs remember
// their folder; the reading and writing itself is runner/bundleio).

#include "outcome.h"
#include "resultsbundle.h"
#include <QString>

class QWidget;

QString chooseBundleToOpen(QWidget *parent, const QString &title = QString());
QString chooseBundleToSave(QWidget *parent, const ResultsBundle &bundle);
Outcome<ResultsBundle> loadBundleFile(const QString &path);
Status saveBundleFile(const ResultsBundle &bundle, const QString &path);
// "ecommerce-2026-11-29-2105.json"
QString suggestedBundleName(const ResultsBundle &bundle);
