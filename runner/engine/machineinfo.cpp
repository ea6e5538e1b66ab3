#include "machineinfo.h"

#include <QFile>
#include <QSysInfo>
#include <QThread>

namespace {

QString cpuModel()
{
    QFile file(QStringLiteral("/proc/cpuinfo"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return QSysInfo::currentCpuArchitecture();
    // The kernel generates the file and reports no size, so atEnd() is true before the first
    // read: read until a read returns nothing.
    for (QByteArray raw = file.readLine(); !raw.isEmpty(); raw = file.readLine()) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QLatin1String("model name"))) {
            const int colon = line.indexOf(QLatin1Char(':'));
            if (colon >= 0)
                return line.mid(colon + 1).trimmed();
        }
    }
    return QSysInfo::currentCpuArchitecture();
}

} // namespace

MachineInfo currentMachine()
{
    MachineInfo machine;
    machine.cpuModel = cpuModel();
    machine.cores = QThread::idealThreadCount();
    machine.os = QSysInfo::prettyProductName() + QStringLiteral(", ") + QSysInfo::kernelType()
        + QLatin1Char(' ') + QSysInfo::kernelVersion();
    machine.hostname = QSysInfo::machineHostName();
    return machine;
}
