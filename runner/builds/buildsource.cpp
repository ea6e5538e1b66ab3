#include "buildsource.h"

#include "sourcefile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace {

const int kGitTimeoutMs = 30000;

// Runs git in `folder`; nullopt when git is missing, the folder is no checkout or git fails.
std::optional<QByteArray> git(const QString &folder, const QStringList &arguments)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(QStringLiteral("git"), QStringList{QStringLiteral("-C"), folder} + arguments);
    if (!process.waitForStarted(kGitTimeoutMs) || !process.waitForFinished(kGitTimeoutMs))
        return std::nullopt;
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return std::nullopt;
    return process.readAllStandardOutput();
}

// What a build writes into a tree that is not a git checkout: objects, libraries, dependency
// files, the make settings and the programs. Left out of the content, so a tree the user built
// in place hashes as its sources.
bool isBuildProduct(const QString &relative)
{
    static const QRegularExpression products(QStringLiteral(
        "(\\.(o|d|a|so(\\.[0-9.]+)?|gcda|gcno)$)|(^|/)\\.make-[^/]*$|"
        "^src/(valkey|redis)-(server|cli|benchmark|check-aof|check-rdb|sentinel)$|^src/Makefile\\.dep$"));
    return products.match(relative).hasMatch();
}

// Every entry that is not a folder, FIFOs and devices included (they are refused by name when
// hashed, not left out unseen).
Outcome<QStringList> filesOfPlainFolder(const QString &root, const StopRequested &stop)
{
    QStringList files;
    const QDir dir(root);
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        if (stop && stop())
            return Error{QStringLiteral("cancelled")};
        const QString relative = dir.relativeFilePath(it.next());
        if (!relative.startsWith(QLatin1String(".git/")) && !isBuildProduct(relative))
            files << relative;
    }
    return files;
}

// A checkout's files as git sees them: tracked (less those deleted) and untracked, not ignored.
std::optional<QStringList> filesOfCheckout(const QString &root)
{
    const std::optional<QByteArray> listed =
        git(root, {QStringLiteral("ls-files"), QStringLiteral("-z"), QStringLiteral("--cached"), QStringLiteral("--others"),
                   QStringLiteral("--exclude-standard"), QStringLiteral("--"), QStringLiteral(".")});
    if (!listed)
        return std::nullopt;
    QSet<QString> files;   // a file with a merge conflict is listed once per stage
    for (const QByteArray &name : listed->split('\0')) {
        const QString relative = QString::fromLocal8Bit(name);
        // A FIFO or device stays in: hashing refuses it by name. Deleted tracked files go.
        const QFileInfo info(QDir(root).filePath(relative));
        if (!relative.isEmpty() && info.exists() && !info.isDir())
            files.insert(relative);
    }
    return QStringList(files.begin(), files.end());
}

// The hash of a tree: for each file in name order its path, whether it is executable and its
// content's sha256. A symbolic link counts as the file it names, which must lie in the tree.
Outcome<QString> contentHash(const QString &root, QStringList files, std::map<QString, QString> &recorded, const StopRequested &stop)
{
    std::sort(files.begin(), files.end());
    recorded.clear();
    const QDir dir(root);
    const QString canonicalRoot = QFileInfo(root).canonicalFilePath() + QLatin1Char('/');
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &relative : files) {
        const QFileInfo info(dir.filePath(relative));
        if (info.isSymLink() && !info.canonicalFilePath().startsWith(canonicalRoot))
            return Error{QStringLiteral("%1: a link to %2, outside the source tree").arg(info.filePath(), info.symLinkTarget())};
        const Outcome<QString> sha = hashSourceFile(info.filePath(), stop);
        if (!sha)
            return Error{sha.error()};
        const QString entry = sha.value() + (info.isExecutable() ? QStringLiteral(" x") : QStringLiteral(" -"));
        hash.addData(relative.toUtf8());
        hash.addData(QByteArrayView("\0", 1));
        hash.addData(entry.toLatin1());
        hash.addData(QByteArrayView("\n", 1));
        recorded[relative] = entry;
    }
    return QString::fromLatin1(hash.result().toHex());
}

// The folder itself when it holds src/version.h, else its only subfolder that does (a tarball's
// single top folder).
Outcome<QString> treeRootOf(const QString &folder)
{
    if (QFileInfo::exists(QDir(folder).filePath(QStringLiteral("src/version.h"))))
        return folder;
    const QStringList children = QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (children.size() == 1 && QFileInfo::exists(QDir(folder).filePath(children.front() + QStringLiteral("/src/version.h"))))
        return QDir(folder).filePath(children.front());
    return Error{QStringLiteral("%1: not a Valkey or Redis source tree (no src/version.h)").arg(folder)};
}

Status readProductAndVersion(BuildSource &source)
{
    const QString header = QDir(source.treeRoot).filePath(QStringLiteral("src/version.h"));
    QFile file(header);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("%1: %2").arg(header, file.errorString())};
    const Outcome<std::pair<QString, QString>> found = productAndVersionOf(file.read(64 * 1024), header);
    if (!found)
        return Error{found.error()};
    source.product = found->first;
    source.version = found->second;
    // The build runs src/Makefile (MakeRun); the top-level one only passes targets on to it.
    if (!QFileInfo::exists(QDir(source.treeRoot).filePath(QStringLiteral("src/Makefile"))))
        return Error{QStringLiteral("%1: no src/Makefile").arg(source.treeRoot)};
    return Status::success();
}

} // namespace

Outcome<std::pair<QString, QString>> productAndVersionOf(const QByteArray &versionHeader, const QString &path)
{
    // Valkey's version.h defines VALKEY_VERSION beside REDIS_VERSION (7.2.4 on every Valkey).
    static const QRegularExpression valkey(QStringLiteral("^#define\\s+VALKEY_VERSION\\s+\"([0-9A-Za-z.\\-]{1,32})\""),
                                           QRegularExpression::MultilineOption);
    static const QRegularExpression redis(QStringLiteral("^#define\\s+REDIS_VERSION\\s+\"([0-9A-Za-z.\\-]{1,32})\""),
                                          QRegularExpression::MultilineOption);
    const QString text = QString::fromLatin1(versionHeader);
    if (const QRegularExpressionMatch match = valkey.match(text); match.hasMatch())
        return std::pair{QStringLiteral("valkey"), match.captured(1)};
    if (const QRegularExpressionMatch match = redis.match(text); match.hasMatch())
        return std::pair{QStringLiteral("redis"), match.captured(1)};
    return Error{QStringLiteral("%1: defines neither VALKEY_VERSION nor REDIS_VERSION").arg(path)};
}

Outcome<BuildSource> sourceFromTree(const QString &folder, const StopRequested &stop)
{
    const QFileInfo info(folder);
    if (!info.isDir())
        return Error{QStringLiteral("%1: no such folder").arg(folder)};
    BuildSource source;
    source.kind = BuildSource::Kind::Tree;
    source.path = info.absoluteFilePath();
    Outcome<QString> root = treeRootOf(source.path);
    if (!root)
        return Error{root.error()};
    source.treeRoot = root.value();
    if (Status read = readProductAndVersion(source); !read)
        return Error{read.error()};

    QStringList files;
    if (std::optional<QStringList> tracked = filesOfCheckout(source.treeRoot)) {
        files = *tracked;
        if (const std::optional<QByteArray> head = git(source.treeRoot, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}))
            source.gitSha = QString::fromLatin1(head->trimmed());
        if (const std::optional<QByteArray> branch =
                git(source.treeRoot, {QStringLiteral("symbolic-ref"), QStringLiteral("--short"), QStringLiteral("-q"), QStringLiteral("HEAD")}))
            source.gitBranch = QString::fromLocal8Bit(branch->trimmed());
        const std::optional<QByteArray> status =
            git(source.treeRoot, {QStringLiteral("status"), QStringLiteral("--porcelain"), QStringLiteral("--untracked-files=normal")});
        source.dirty = !status || !status->trimmed().isEmpty();
    } else {
        Outcome<QStringList> plain = filesOfPlainFolder(source.treeRoot, stop);
        if (!plain)
            return Error{plain.error()};
        files = plain.value();
    }
    if (files.isEmpty())
        return Error{QStringLiteral("%1: the source tree has no files").arg(source.treeRoot)};
    Outcome<QString> hash = contentHash(source.treeRoot, files, source.files, stop);
    if (!hash)
        return Error{hash.error()};
    source.contentSha256 = hash.value();
    return source;
}

QStringList filesGitIgnores(const QString &treeRoot)
{
    const std::optional<QByteArray> listed =
        git(treeRoot, {QStringLiteral("ls-files"), QStringLiteral("-z"), QStringLiteral("--others"), QStringLiteral("--ignored"),
                       QStringLiteral("--exclude-standard"), QStringLiteral("--"), QStringLiteral(".")});
    QStringList files;
    for (const QByteArray &name : listed.value_or(QByteArray()).split('\0')) {
        if (!name.isEmpty())
            files << QString::fromLocal8Bit(name);
    }
    return files;
}

Outcome<BuildSource> sourceFromTarball(const QString &file, const StopRequested &stop)
{
    const QFileInfo info(file);
    if (!info.exists())
        return Error{QStringLiteral("%1: no such file").arg(file)};
    static const QRegularExpression tarball(QStringLiteral("\\.(tar\\.gz|tgz|tar\\.xz|tar\\.bz2|tar)$"));
    if (!tarball.match(info.fileName()).hasMatch())
        return Error{QStringLiteral("%1: not a tarball (.tar.gz, .tgz, .tar.xz, .tar.bz2) nor a folder").arg(file)};
    BuildSource source;
    source.kind = BuildSource::Kind::Tarball;
    source.path = info.absoluteFilePath();
    const Outcome<QString> sha = hashSourceFile(source.path, stop);
    if (!sha)
        return Error{sha.error()};
    source.tarballSha256 = sha.value();
    return source;
}

Status completeUnpackedSource(BuildSource &source, const QString &folder, const StopRequested &stop)
{
    Outcome<QString> root = treeRootOf(folder);
    if (!root)
        return Error{QStringLiteral("%1: %2").arg(source.path, root.error())};
    source.treeRoot = root.value();
    if (Status read = readProductAndVersion(source); !read)
        return read;
    const Outcome<QStringList> files = filesOfPlainFolder(source.treeRoot, stop);
    if (!files)
        return Error{files.error()};
    Outcome<QString> hash = contentHash(source.treeRoot, files.value(), source.files, stop);
    if (!hash)
        return Error{hash.error()};
    source.contentSha256 = hash.value();
    return Status::success();
}

BuildOrigin BuildSource::origin() const
{
    BuildOrigin origin;
    origin.kind = BuildKind::UpstreamBuild;
    origin.source = kind == Kind::Tarball ? QFileInfo(path).fileName() : path;
    origin.sourceSha256 = kind == Kind::Tarball ? tarballSha256 : contentSha256;
    origin.gitSha = gitSha;
    origin.gitBranch = gitBranch;
    origin.dirty = dirty;
    return origin;
}
