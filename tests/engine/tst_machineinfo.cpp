// The machine a bundle records: read from the running system, not assumed.

#include "machineinfo.h"

#include <QtTest>
#include <fstream>
#include <string>
#include <thread>

class TestMachineInfo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // /proc/cpuinfo reports a size of 0; the model must still be read from it.
    void cpuModelComesFromProcCpuinfo()
    {
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string line;
        QString expected;
        while (std::getline(cpuinfo, line)) {
            if (line.rfind("model name", 0) == 0) {
                expected = QString::fromStdString(line.substr(line.find(':') + 1)).trimmed();
                break;
            }
        }
        if (expected.isEmpty())
            QSKIP("this kernel's /proc/cpuinfo has no model name line");
        QCOMPARE(currentMachine().cpuModel, expected);
    }

    void coresAndOs()
    {
        const MachineInfo machine = currentMachine();
        QCOMPARE(machine.cores, int(std::thread::hardware_concurrency()));
        QVERIFY(!machine.os.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMachineInfo)
#include "tst_machineinfo.moc"
