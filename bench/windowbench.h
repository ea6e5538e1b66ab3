#pragma once
// What the benchmarks that drive the real main window share: the platform, a settings scope
// of their own, and the servers checked in the window as a user would.

#include "benchsupport.h"
#include "mainwindow.h"
#include "serverspanel.h"

#include <QApplication>
#include <QElapsedTimer>

namespace WindowBench {

constexpr qint64 discoveryTimeoutMs = 30000;

// Must run before QApplication exists: the platform is chosen when it is constructed.
inline void useOffscreenPlatformUnlessChosen()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// A private settings scope: the benchmark must not change the user's saved choices.
inline void usePrivateSettingsScope()
{
    QApplication::setOrganizationName(QStringLiteral("versus-bench"));
    QApplication::setApplicationName(QStringLiteral("versus-bench"));
}

inline QStringList wantedServerPrefixes(const QStringList &args)
{
    QStringList wanted = {QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-8.1.1"), QStringLiteral("valkey-9.1.")};
    for (int i = 1; i + 1 < args.size(); ++i)
        if (args[i] == QLatin1String("--servers"))
            wanted = args[i + 1].split(QLatin1Char(','));
    return wanted;
}

inline void waitUntilWindowIsReady(MainWindow &window)
{
    QElapsedTimer guard;
    guard.start();
    while ((window.serversPanel()->isDiscovering() || !window.isReady()) && guard.elapsed() < discoveryTimeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

// Checks exactly the offered servers that match a wanted prefix; fails unless each prefix
// found one.
inline QStringList checkWantedServers(MainWindow &window, const QStringList &wanted)
{
    QStringList chosen;
    for (const QString &label : window.serversPanel()->labels()) {
        bool take = false;
        for (const QString &prefix : wanted)
            take = take || label.startsWith(prefix);
        window.serversPanel()->setChecked(label, take);
        if (take)
            chosen << label;
    }
    if (chosen.size() != wanted.size())
        Bench::fail(QStringLiteral("wanted %1, the window offers %2").arg(wanted.join(QLatin1Char(',')),
                                                                        window.serversPanel()->labels().join(QLatin1Char(','))));
    return chosen;
}

} // namespace WindowBench
