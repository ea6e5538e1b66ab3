#include "cpuspeedreference.h"

#include "atomicfile.h"
#include "servercatalog.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

CpuSpeedReference::CpuSpeedReference(QString path, QString cpuModel)
    : m_path(std::move(path)), m_cpuModel(std::move(cpuModel))
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (!json.is_object() || !json.contains("cpu_model") || !json.contains("best_loop_ns"))
        return;
    if (!json["cpu_model"].is_string() || !json["best_loop_ns"].is_number())
        return;
    if (QString::fromStdString(json["cpu_model"].get<std::string>()) != m_cpuModel)
        return;
    m_best = std::max(0.0, json["best_loop_ns"].get<double>());
}

QString CpuSpeedReference::defaultPath()
{
    return QFileInfo(ServerCatalog::defaultCacheDir()).dir().filePath(QStringLiteral("cpu-loop.json"));
}

void CpuSpeedReference::offer(double nanoseconds)
{
    if (nanoseconds <= 0 || (m_best > 0 && nanoseconds >= m_best))
        return;
    m_best = nanoseconds;
    const nlohmann::json json = {{"cpu_model", m_cpuModel.toStdString()}, {"best_loop_ns", m_best}};
    QDir().mkpath(QFileInfo(m_path).path());
    writeFileAtomically(m_path, QByteArray::fromStdString(json.dump(2) + "\n"));
}
