#include "cpuspeedreference.h"

#include "atomicfile.h"
#include "servercatalog.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace {
constexpr std::size_t kRecentPasses = 30;
constexpr std::size_t kFewestPasses = 5;
} // namespace

CpuSpeedReference::CpuSpeedReference(QString path, QString cpuModel)
    : m_path(std::move(path)), m_cpuModel(std::move(cpuModel))
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (!json.is_object() || !json.contains("cpu_model") || !json["cpu_model"].is_string())
        return;
    if (QString::fromStdString(json["cpu_model"].get<std::string>()) != m_cpuModel)
        return;
    if (json.contains("best_loop_ns") && json["best_loop_ns"].is_number())
        m_best = std::max(0.0, json["best_loop_ns"].get<double>());
    if (json.contains("recent_chase_ns") && json["recent_chase_ns"].is_array()) {
        for (const nlohmann::json &value : json["recent_chase_ns"]) {
            if (value.is_number() && value.get<double>() > 0)
                m_recentChase.push_back(value.get<double>());
        }
        while (m_recentChase.size() > kRecentPasses)
            m_recentChase.pop_front();
    }
}

QString CpuSpeedReference::defaultPath()
{
    return QFileInfo(ServerCatalog::defaultCacheDir()).dir().filePath(QStringLiteral("cpu-loop.json"));
}

double CpuSpeedReference::bestLoopNanoseconds() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_best;
}

double CpuSpeedReference::usualChaseNanoseconds() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_recentChase.size() < kFewestPasses)
        return 0;
    std::vector<double> sorted(m_recentChase.begin(), m_recentChase.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted[(sorted.size() - 1) / 4];
}

void CpuSpeedReference::offer(double nanoseconds)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (nanoseconds <= 0 || (m_best > 0 && nanoseconds >= m_best))
        return;
    m_best = nanoseconds;
    save();
}

void CpuSpeedReference::offerChase(double nanosecondsPerStep)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (nanosecondsPerStep <= 0)
        return;
    m_recentChase.push_back(nanosecondsPerStep);
    while (m_recentChase.size() > kRecentPasses)
        m_recentChase.pop_front();
    save();
}

void CpuSpeedReference::save() const
{
    nlohmann::json json = {{"cpu_model", m_cpuModel.toStdString()},
                           {"recent_chase_ns", std::vector<double>(m_recentChase.begin(), m_recentChase.end())}};
    if (m_best > 0)
        json["best_loop_ns"] = m_best;
    QDir().mkpath(QFileInfo(m_path).path());
    writeFileAtomically(m_path, QByteArray::fromStdString(json.dump(2) + "\n"));
}
