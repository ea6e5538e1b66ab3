#pragma once
// For window tests that run a real server: the cached server they run, and the window set up to
// run hash-ttl on it alone.

#include "mainwindow.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverspanel.h"
#include "servertesthelpers.h"

#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

namespace WindowRun {

// Clicks Run once the window is ready; false, saying what held it, when it never is. A server
// cache changed during a run (another suite's build beside this one) has the window look for
// servers again when the run ends, and Run waits for that (MainWindow::runBlocker()).
inline bool clickRunOnceReady(MainWindow &window)
{
    if (!QTest::qWaitFor([&window] { return window.runPanel()->runButton()->isEnabled(); }, 30000)) {
        qWarning("Run stayed disabled: %s", qPrintable(window.runBlocker()));
        return false;
    }
    QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
    return true;
}

// The last usable server of the per-user cache whose label starts with `prefix`; empty when
// there is none (then `missing` says what to fetch, for VERSUS_SERVER_MISSING).
inline QString usableServerLabel(const QString &prefix, QString &missing)
{
    ServerCatalog catalog;
    catalog.discover();
    QString label;
    for (const CatalogEntry &entry : catalog.entries()) {
        if (entry.usable() && entry.spec.label.startsWith(prefix))
            label = entry.spec.label;
    }
    if (label.isEmpty())
        missing = QStringLiteral("a %1x is needed in %2 (scripts/fetch-servers)").arg(prefix, ServerCatalog::defaultCacheDir());
    return label;
}

// Ticks `label` alone and chooses hash-ttl with `keys` keys and `repeats` repeats; true once
// the window is ready to run.
inline bool prepareHashTtlRun(MainWindow &window, const QString &label, int keys, int repeats)
{
    ServersPanel *servers = window.serversPanel();
    if (!QTest::qWaitFor([servers] { return !servers->isDiscovering(); }, 60000))
        return false;
    for (const QString &each : servers->labels())
        servers->setChecked(each, each == label);
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(keys);
    window.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(repeats);
    return QTest::qWaitFor([&window] { return window.isReady(); }, 60000);
}

} // namespace WindowRun
