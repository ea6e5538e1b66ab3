#pragma once
// What the benchmarks that drive the real main window share: the platform, a settings scope
// of their own, and the servers checked in the window as a user would.

#include "benchsupport.h"
#include "mainwindow.h"
#include "serverspanel.h"

#include <QApplication>
#include <algorithm>
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

// Checks, for each wanted prefix, the first offered server that starts with it, and no other;
// fails unless each prefix found one. The first: "valkey-8.0.1" is Debian's build, listed
// before valkey-8.0.1-upstream, which starts with the same name.
inline QStringList checkWantedServers(MainWindow &window, const QStringList &wanted)
{
    const QStringList offered = window.serversPanel()->labels();
    QStringList chosen;
    for (const QString &prefix : wanted) {
        const auto first = std::find_if(offered.begin(), offered.end(),
                                        [&prefix](const QString &label) { return label.startsWith(prefix); });
        if (first != offered.end() && !chosen.contains(*first))
            chosen << *first;
    }
    for (const QString &label : offered)
        window.serversPanel()->setChecked(label, chosen.contains(label));
    if (chosen.size() != wanted.size())
        Bench::fail(QStringLiteral("wanted %1, the window offers %2").arg(wanted.join(QLatin1Char(',')), offered.join(QLatin1Char(','))));
    return chosen;
}

} // namespace WindowBench
