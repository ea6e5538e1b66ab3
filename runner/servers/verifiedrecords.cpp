#include "verifiedrecords.h"

#include "atomicfile.h"
#include "boundedfile.h"
#include "filetrust.h"
#include "jsonsupport.h"

#include <QCryptographicHash>
#include <QFile>

#include <sys/stat.h>

namespace {

constexpr const char *kSchema = "versus.verified/1";

Json toJson(const FileFingerprint &print)
{
    return {{"size", print.size}, {"mtime_ns", print.modifiedNs}, {"ctime_ns", print.changedNs},
            {"inode", print.inode}, {"device", print.device}};
}

FileFingerprint fingerprintFrom(const Json &json)
{
    FileFingerprint print;
    readValue(json.at("size"), print.size);
    readValue(json.at("mtime_ns"), print.modifiedNs);
    readValue(json.at("ctime_ns"), print.changedNs);
    readValue(json.at("inode"), print.inode);
    readValue(json.at("device"), print.device);
    return print;
}

VerifiedEntry entryFrom(const Json &json)
{
    VerifiedEntry entry;
    for (const auto &[path, file] : json.at("files").items()) {
        const QString name = QString::fromStdString(path);
        entry.fingerprints[name] = fingerprintFrom(file);
        readValue(file.at("sha256"), entry.sha256[name]);
    }
    readValue(json.at("version_output"), entry.versionOutput);
    return entry;
}

} // namespace

std::optional<FileFingerprint> FileFingerprint::of(const QString &path)
{
    struct stat status{};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return std::nullopt;
    FileFingerprint print;
    print.size = qint64(status.st_size);
    print.modifiedNs = qint64(status.st_mtim.tv_sec) * 1000000000 + qint64(status.st_mtim.tv_nsec);
    print.changedNs = qint64(status.st_ctim.tv_sec) * 1000000000 + qint64(status.st_ctim.tv_nsec);
    print.inode = qint64(status.st_ino);
    print.device = qint64(status.st_dev);
    return print;
}

bool FileFingerprint::operator==(const FileFingerprint &other) const
{
    return size == other.size && modifiedNs == other.modifiedNs && changedNs == other.changedNs && inode == other.inode
        && device == other.device;
}

QString sha256OfFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return QString();
    return QString::fromLatin1(hash.result().toHex());
}

VerifiedRecords::VerifiedRecords(QString path) : m_path(std::move(path)) {}

void VerifiedRecords::load()
{
    m_entries.clear();
    m_changed = false;
    if (m_path.isEmpty() || !QFile::exists(m_path))
        return;
    // A record others could write would let them mark anything verified.
    if (!untrustedFileReason(m_path).isEmpty()) {
        m_changed = true;
        return;
    }
    const Outcome<QByteArray> bytes = readBoundedFile(m_path, 16 << 20, QStringLiteral("the cache's record"));
    if (!bytes) {
        m_changed = true;   // replaced on save, when it is a regular file
        return;
    }
    const Outcome<Json> document = parseJson(bytes.value(), m_path);
    try {
        if (!document || !document->is_object() || document->value("schema", std::string()) != kSchema)
            throw std::runtime_error("not a record");
        for (const auto &[key, entry] : document->at("entries").items())
            m_entries[QString::fromStdString(key)] = entryFrom(entry);
    } catch (const std::exception &) {
        m_entries.clear();
        m_changed = true;   // replaced on save
    }
}

Status VerifiedRecords::save()
{
    if (m_path.isEmpty() || !m_changed)
        return Status::success();
    Json entries = Json::object();
    for (const auto &[key, entry] : m_entries) {
        Json files = Json::object();
        for (const auto &[path, print] : entry.fingerprints) {
            Json file = toJson(print);
            const auto sha = entry.sha256.find(path);
            file["sha256"] = sha == entry.sha256.end() ? QString() : sha->second;
            files[path.toStdString()] = file;
        }
        entries[key.toStdString()] = {{"files", files}, {"version_output", entry.versionOutput}};
    }
    const Json document = {{"schema", kSchema}, {"entries", entries}};
    // Created owner-only; an existing file keeps its mode through the atomic write, so set it.
    if (Status written = writeFileAtomically(m_path, QByteArray::fromStdString(document.dump(1)) + '\n', PathOrigin::NamedByVersus); !written)
        return written;
    QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_changed = false;
    return Status::success();
}

const VerifiedEntry *VerifiedRecords::unchanged(const QString &key, const QStringList &paths) const
{
    const auto found = m_entries.find(key);
    if (found == m_entries.end() || found->second.fingerprints.size() != size_t(paths.size()))
        return nullptr;
    for (const QString &path : paths) {
        const auto recorded = found->second.fingerprints.find(path);
        const std::optional<FileFingerprint> now = FileFingerprint::of(path);
        if (recorded == found->second.fingerprints.end() || !now || !(*now == recorded->second))
            return nullptr;
    }
    return &found->second;
}

void VerifiedRecords::remember(const QString &key, VerifiedEntry entry)
{
    m_entries[key] = std::move(entry);
    m_changed = true;
}

void VerifiedRecords::forget(const QString &key)
{
    if (m_entries.erase(key) > 0)
        m_changed = true;
}
