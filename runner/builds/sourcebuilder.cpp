#include "sourcebuilder.h"

#include "buildinstall.h"
#include "buildrecipe.h"
#include "filetrust.h"
#include "makerun.h"
#include "worktree.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <optional>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace {

// One build at a time per cache: two would share a work tree and the two cores.
class BuildLock {
public:
    explicit BuildLock(const QString &path)
    {
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        tryTake();
    }
    // Takes the lock if no one holds it; false while another build does.
    bool tryTake()
    {
        m_held = m_held || (m_fd >= 0 && ::flock(m_fd, LOCK_EX | LOCK_NB) == 0);
        return m_held;
    }
    bool opened() const { return m_fd >= 0; }
    ~BuildLock()
    {
        if (m_fd >= 0)
            ::close(m_fd);   // releases the lock
    }
    bool held() const { return m_held; }

private:
    int m_fd = -1;
    bool m_held = false;
};

// The cache is judged as the catalog judges it before anything is written into it, and its
// .builds folder must be a folder of this user's, not a link: what a killed build left there is
// removed, and a link would have that removed wherever it points.
Status prepareBuildsFolder(const QString &cacheDir, const QString &builds)
{
    const bool existed = QFileInfo::exists(cacheDir);
    if (existed || QDir().mkpath(cacheDir)) {
        if (const QString reason = untrustedFolderReason(cacheDir); !reason.isEmpty())
            return Error{QStringLiteral("refusing the server cache: %1").arg(reason)};
    }
    const QFileInfo info(builds);
    if (info.isSymLink())
        return Error{QStringLiteral("refusing %1: a symbolic link (to %2), not a folder; remove it").arg(builds, info.symLinkTarget())};
    if (!QDir().mkpath(builds) || !QFile::setPermissions(builds, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner))
        return Error{QStringLiteral("cannot create %1").arg(builds)};
    if (const QString reason = untrustedFileReason(builds); !reason.isEmpty())
        return Error{QStringLiteral("refusing %1: %2").arg(builds, reason)};
    return Status::success();
}

bool waitForTheLock(BuildLock &lock, const SourceBuilder::Cancelled &cancelled)
{
    while (!lock.tryTake()) {
        if (cancelled && cancelled())
            return false;
        QThread::msleep(200);
    }
    return true;
}

// Holding the lock, nothing else builds: what a killed build left half-made goes.
void removeLeftovers(const QString &builds)
{
    const QStringList leftovers = QDir(builds).entryList({QStringLiteral("unpack-*"), QStringLiteral("install-*"), QStringLiteral("replaced-*")},
                                                         QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &leftover : leftovers)
        QDir(QDir(builds).filePath(leftover)).removeRecursively();
}

QString failedStep(const QString &step, const QString &why)
{
    return QStringLiteral("build failed at step '%1': %2").arg(step, why);
}

// The step a build's progress names while make runs: a link can take minutes after the last
// compilation, so it is a step of its own.
QString makeStepName(MakeStage stage)
{
    return stage == MakeStage::Linking ? QStringLiteral("link") : QStringLiteral("make");
}

// The files git ignores in a checkout that make's first error names ("./configure: not
// found" names deps/configure): the build copied the tracked and untracked files only, so a
// file the tree builds with but .gitignore lists was not there.
QStringList ignoredFilesNamedIn(const QString &errorLine, const BuildSource &source)
{
    if (errorLine.isEmpty() || source.kind != BuildSource::Kind::Tree)
        return {};
    static const QRegularExpression separators(QStringLiteral("[\\s:'\"`()\\[\\]\u2018\u2019]+"));
    QSet<QString> words;
    for (QString word : errorLine.split(separators, Qt::SkipEmptyParts)) {
        while (word.startsWith(QLatin1String("./")))
            word.remove(0, 2);
        if (word.size() > 1)
            words.insert(word);
    }
    QStringList named;
    for (const QString &ignored : filesGitIgnores(source.treeRoot)) {
        const QString name = ignored.section(QLatin1Char('/'), -1);
        if (words.contains(ignored) || words.contains(name))
            named << ignored;
        if (named.size() == 3)
            break;
    }
    return named;
}

// make's error, and when its first error names files git ignores, why they were missing.
QString makeFailure(const QString &error, const QString &firstError, const BuildSource &source)
{
    const QStringList ignored = ignoredFilesNamedIn(firstError, source);
    if (ignored.isEmpty())
        return error;
    return QStringLiteral("%1. %2 %3 in %4 but git ignores %5, and a build copies only the files git tracks or would track "
                          "from a checkout: track %5 (git add -f) or build a copy of the tree that is not a git checkout")
        .arg(error, ignored.join(QStringLiteral(", ")), ignored.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
             source.treeRoot, ignored.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

// The build of `source` the cache already holds by this recipe, if any. A build is renamed into
// place whole (installBuild()), so a folder whose key matches is complete and stays so while
// another build goes on in the cache.
std::optional<BuiltServer> installedAlready(const QString &cacheDir, const BuildSource &source, const BuildRecipe &recipe)
{
    const QString label = buildLabel(source);
    const QString folder = QDir(cacheDir).filePath(label);
    if (!checkReplaceable(folder, source) || installedBuildKey(folder) != recipe.buildKey(source))
        return std::nullopt;
    return BuiltServer{label, folder, true, false, QDir(folder).filePath(QStringLiteral("build.log"))};
}

} // namespace

SourceBuilder::SourceBuilder(QString cacheDir)
    : m_cacheDir(std::move(cacheDir))
{
}

void SourceBuilder::report(const QString &step, int percent, const QString &detail) const
{
    if (m_progress)
        m_progress({step, percent, detail});
}

Outcome<BuiltServer> SourceBuilder::build(const QString &path)
{
    report(QStringLiteral("source"), 0, path);
    const QFileInfo given(path);
    Outcome<BuildSource> resolved = given.isDir() ? sourceFromTree(path, m_cancelled) : sourceFromTarball(path, m_cancelled);
    if (!resolved)
        return Error{failedStep(QStringLiteral("source"), resolved.error())};
    BuildSource source = std::move(resolved.value());
    const Outcome<BuildRecipe> recipe = BuildRecipe::onThisMachine();
    if (!recipe)
        return Error{failedStep(QStringLiteral("source"), recipe.error())};

    const QString builds = QDir(m_cacheDir).filePath(QStringLiteral(".builds"));
    if (Status ready = prepareBuildsFolder(m_cacheDir, builds); !ready)
        return Error{failedStep(QStringLiteral("source"), ready.error())};
    // With the cache judged, a tree already built answers at once, not after another build in
    // the cache (a second window's, a second suite's) has ended; a tarball's label needs its
    // unpacked version, so it is looked up under the lock.
    if (source.kind == BuildSource::Kind::Tree) {
        if (const std::optional<BuiltServer> built = installedAlready(m_cacheDir, source, recipe.value())) {
            report(QStringLiteral("install"), 100, QStringLiteral("%1 is already built").arg(built->label));
            return *built;
        }
    }
    BuildLock lock(QDir(builds).filePath(QStringLiteral("lock")));
    if (!lock.opened())
        return Error{failedStep(QStringLiteral("source"), QStringLiteral("cannot open the build lock in %1").arg(builds))};
    // Another build in this cache (another Versus, another window): wait for it, as cargo waits
    // for its file lock, saying so; Cancel ends the wait.
    if (!lock.held())
        report(QStringLiteral("wait"), 0, QStringLiteral("for another build in %1 to end").arg(m_cacheDir));
    if (!waitForTheLock(lock, m_cancelled))
        return Error{QStringLiteral("cancelled while waiting for another build in %1 to end").arg(m_cacheDir)};
    removeLeftovers(builds);
    return buildHoldingTheLock(std::move(source), recipe.value(), builds);
}

// The build itself, once this builder holds the cache's build lock (build()).
Outcome<BuiltServer> SourceBuilder::buildHoldingTheLock(BuildSource source, const BuildRecipe &recipe, const QString &builds)
{
    // A tarball is unpacked into a folder that goes when the build ends, however it ends.
    QTemporaryDir unpacked(QDir(builds).filePath(QStringLiteral("unpack-XXXXXX")));
    if (source.kind == BuildSource::Kind::Tarball) {
        report(QStringLiteral("unpack"), 1, source.path);
        if (Status done = unpackTarball(source.path, unpacked.path(), m_cancelled); !done)
            return Error{failedStep(QStringLiteral("unpack"), done.error())};
        if (Status done = completeUnpackedSource(source, unpacked.path(), m_cancelled); !done)
            return Error{failedStep(QStringLiteral("unpack"), done.error())};
    }

    const QString label = buildLabel(source);
    const QString key = recipe.buildKey(source);
    const QString folder = QDir(m_cacheDir).filePath(label);
    if (Status replaceable = checkReplaceable(folder, source); !replaceable)
        return Error{failedStep(QStringLiteral("source"), replaceable.error())};
    if (const std::optional<BuiltServer> built = installedAlready(m_cacheDir, source, recipe)) {
        report(QStringLiteral("install"), 100, QStringLiteral("%1 is already built").arg(label));
        return *built;
    }

    WorkTree tree(QDir(builds).filePath(source.product + QLatin1Char('-') + source.version));
    report(QStringLiteral("prepare"), 2, source.treeRoot);
    const Outcome<SyncResult> synced = tree.sync(source, recipe.signature(), m_cancelled);
    if (!synced)
        return Error{failedStep(QStringLiteral("prepare"), synced.error())};

    MakeRun make(tree.treePath(), tree.logPath(), recipe.makeVariables, installedPrograms(source.product), m_jobs);
    make.setExpectedCompilations(expectedCompilations(source));
    make.setProgress([this](MakeStage stage, int percent, const QString &detail) { report(makeStepName(stage), 3 + percent * 92 / 100, detail); });
    make.setCancelled(m_cancelled);
    if (Status marked = tree.beginMake(); !marked)
        return Error{failedStep(QStringLiteral("make"), marked.error())};
    if (const Status made = make.run(); !made) {
        if (make.wasCancelled())
            tree.distrust();   // a killed compiler may have left a cut object file
        else
            tree.endMake();    // a compiler that fails removes its output
        return Error{failedStep(QStringLiteral("make"), makeFailure(made.error(), make.firstError(), source))};
    }
    tree.endMake();
    if (cancelled())
        return Error{failedStep(QStringLiteral("make"), QStringLiteral("cancelled"))};

    report(QStringLiteral("check"), 96, label);
    InstallRequest request{label, key, source, recipe, tree.treePath(), tree.logPath(), AllocatorFacts()};
    if (Status checked = checkBuiltServer(request); !checked)
        return Error{failedStep(QStringLiteral("check"), checked.error())};
    report(QStringLiteral("install"), 98, folder);
    if (Status installed = installBuild(request, m_cacheDir); !installed)
        return Error{failedStep(QStringLiteral("install"), installed.error())};
    report(QStringLiteral("install"), 100, label);
    return BuiltServer{label, folder, false, synced->fromNothing, QDir(folder).filePath(QStringLiteral("build.log"))};
}
