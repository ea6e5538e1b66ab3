#include "launchconfig.h"

#include "replayrules.h"

#include <QFile>

LaunchConfig newLaunchConfig()
{
    LaunchConfig config;
    config.control.password = ReplayRules::randomPassword();
    config.replay.user = ReplayRules::launchedUserName();
    config.replay.password = ReplayRules::randomPassword();
    return config;
}

QByteArray launchConfigText(const LaunchConfig &config)
{
    // Hex passwords and rule words need no quoting.
    const QString userLine = QStringLiteral("user %1 on >%2 %3")
                                 .arg(config.replay.user, config.replay.password, ReplayRules::userRules().join(QLatin1Char(' ')));
    return QByteArrayLiteral("# Written by Versus for this server alone; removed with its folder.\n")
        + "requirepass " + config.control.password.toLatin1() + '\n' + userLine.toLatin1() + '\n';
}

Status writeLaunchConfig(const QString &path, const LaunchConfig &config)
{
    QFile file(path);
    // Created 0600 in one step: there is no moment when the file is readable by others.
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Error{QStringLiteral("cannot create %1: %2").arg(path, file.errorString())};
    const QByteArray text = launchConfigText(config);
    if (file.write(text) != text.size() || !file.flush())
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString())};
    return Status::success();
}
