#include "worktree.h"

#include "atomicfile.h"
#include "boundedfile.h"
#include "jsonsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {

struct TreeState {
    QString signature;
    std::map<QString, QString> files;   // as BuildSource::files
};

std::optional<TreeState> readState(const QString &path)
{
    const Outcome<QByteArray> bytes = readBoundedFile(path, 64 << 20, QStringLiteral("a build's state"));
    if (!bytes)
        return std::nullopt;
    const Outcome<Json> document = parseJson(bytes.value(), path);
    if (!document || !document->is_object())
        return std::nullopt;
    TreeState state;
    try {
        readOptional(document.value(), "signature", state.signature);
        readOptional(document.value(), "files", state.files);
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
    return state;
}

// Copies one file of the source and checks that what was copied is what was hashed: a tree
// that changes between the two would otherwise build content its label does not name.
Status copyHashedFile(const QString &from, const QString &to, const QString &entry, const StopRequested &stop)
{
    const Outcome<QString> copied = copySourceFile(from, to, entry.endsWith(QLatin1String(" x")), stop);
    if (!copied)
        return Error{copied.error()};
    const QString hashed = entry.section(QLatin1Char(' '), 0, 0);
    if (copied.value() != hashed)
        return Error{QStringLiteral("%1 changed while the build read the source (sha256 %2 when hashed, %3 when copied); "
                                    "build again once the tree stops changing")
                         .arg(from, hashed, copied.value())};
    return Status::success();
}

} // namespace

WorkTree::WorkTree(QString folder)
    : m_folder(std::move(folder))
{
}

QString WorkTree::treePath() const { return m_folder + QStringLiteral("/tree"); }
QString WorkTree::logPath() const { return m_folder + QStringLiteral("/build.log"); }
QString WorkTree::statePath() const { return m_folder + QStringLiteral("/state.json"); }
QString WorkTree::makingPath() const { return m_folder + QStringLiteral("/making"); }

Status WorkTree::beginMake() const
{
    QFile::remove(makingPath());   // made new: a link under its name is never written through
    QFile marker(makingPath());
    if (!marker.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return Error{QStringLiteral("cannot write %1: %2").arg(makingPath(), marker.errorString())};
    return Status::success();
}

void WorkTree::endMake() const
{
    QFile::remove(makingPath());
}

void WorkTree::distrust()
{
    QFile::remove(statePath());
}

bool WorkTree::needsFromNothing(const BuildSource &source, const std::map<QString, QString> &before) const
{
    if (before.empty())
        return true;
    for (const auto &[relative, entry] : source.files) {
        const auto known = before.find(relative);
        if (relative.startsWith(QLatin1String("deps/")) && (known == before.end() || known->second != entry))
            return true;
    }
    for (const auto &[relative, entry] : before) {
        if (relative.startsWith(QLatin1String("deps/")) && !source.files.count(relative))
            return true;
    }
    return false;
}

Outcome<SyncResult> WorkTree::sync(const BuildSource &source, const QString &signature, const StopRequested &stop)
{
    const std::optional<TreeState> state = readState(statePath());
    std::map<QString, QString> before;   // empty: another recipe built it, or nothing is known
    if (state && state->signature == signature && !QFileInfo::exists(makingPath()))
        before = state->files;
    QFile::remove(makingPath());
    SyncResult result;
    result.fromNothing = needsFromNothing(source, before);
    // Written again only once the tree holds the new files: a sync cut short starts from nothing.
    distrust();
    if (result.fromNothing) {
        before.clear();
        if (QDir(treePath()).exists() && !QDir(treePath()).removeRecursively())
            return Error{QStringLiteral("cannot empty the build folder %1").arg(treePath())};
    }
    if (!QDir().mkpath(treePath()))
        return Error{QStringLiteral("cannot create the build folder %1").arg(treePath())};

    const QDir tree(treePath());
    const QDir from(source.treeRoot);
    for (const auto &[relative, entry] : before) {
        if (!source.files.count(relative) && QFile::remove(tree.filePath(relative)))
            ++result.removed;
    }
    for (const auto &[relative, entry] : source.files) {
        const auto known = before.find(relative);
        if (known != before.end() && known->second == entry && QFileInfo::exists(tree.filePath(relative)))
            continue;
        if (Status copied = copyHashedFile(from.filePath(relative), tree.filePath(relative), entry, stop); !copied)
            return Error{copied.error()};
        ++result.copied;
    }
    if (Status written = writeState(source, signature); !written)
        return Error{written.error()};
    return result;
}

Status WorkTree::writeState(const BuildSource &source, const QString &signature) const
{
    Json files = Json::object();
    for (const auto &[relative, entry] : source.files)
        files[relative.toStdString()] = entry.toStdString();
    const Json document = {{"signature", signature.toStdString()}, {"files", files}};
    return writeFileAtomically(statePath(), QByteArray::fromStdString(document.dump(1)), PathOrigin::NamedByVersus);
}
