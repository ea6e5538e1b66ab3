#pragma once
// The files a bundle's views are written as, in the table's order (figureviews.h), whatever a
// row's drawing (the memory Why's why-memory.<ext> among the bar charts'). Tests of a consumer of
// the table (an export, a run's file check) compare with this: which views there are is pinned
// once, in tst_figureviews, so a new view is one row and that test.

#include "figureviews.h"
#include <QStringList>

// "<stem>.<extension>" for each of `kinds`, each view's extensions together.
inline QStringList viewFileNames(const std::vector<ChartKind> &kinds, const QStringList &extensions)
{
    QStringList names;
    for (const ChartKind kind : kinds) {
        for (const QString &extension : extensions)
            names << figureView(kind).stem + QLatin1Char('.') + extension;
    }
    return names;
}
