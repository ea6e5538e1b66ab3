// A build whose make fails says what failed: make's first error, not its last line (the first
// is often fifty lines up, and the last only says make stopped), in the builder's error that the
// window's build dialog and `versus build` show; and when that error names a file the checkout's
// .gitignore lists (which a build from a checkout does not copy), it says so. A link line is a
// step of its own in the progress. Small trees whose Makefiles fail for real, each built into a
// cache of its own.

#include "servertesthelpers.h"
#include "sourcebuilder.h"
#include "versuscli.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

void writeTreeFile(const QString &path, const QByteArray &content, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
    file.close();
    if (executable)
        QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));
}

// A Valkey 8.0.1 tree whose src/Makefile runs `recipe` for the server and then prints fifty more
// lines, as a build's other jobs do, before make reports the failure. The CLI waits for the
// server, so the failure is the recipe's alone.
void writeFailingTree(const QString &root, const QByteArray &recipe)
{
    writeTreeFile(root + QStringLiteral("/src/version.h"), "#define VALKEY_VERSION \"8.0.1\"\n#define REDIS_VERSION \"7.2.4\"\n");
    writeTreeFile(root + QStringLiteral("/src/server.c"), "int main(void) { return 0; }\n");
    writeTreeFile(root + QStringLiteral("/src/Makefile"),
                  "valkey-cli: valkey-server\nvalkey-server:\n\t@" + recipe + "; failed=$$?; for i in $$(seq 50); do echo \"    other job line $$i\"; done; exit $$failed\n");
}

bool runGit(const QString &folder, const QStringList &arguments)
{
    QProcess git;
    git.setProcessChannelMode(QProcess::MergedChannels);
    git.start(QStringLiteral("git"), QStringList{QStringLiteral("-C"), folder, QStringLiteral("-c"), QStringLiteral("user.name=t"),
                                                 QStringLiteral("-c"), QStringLiteral("user.email=t@t")} + arguments);
    return git.waitForFinished(30000) && git.exitCode() == 0;
}

// A checkout whose deps/configure exists but is listed in .gitignore, as generated files often
// are: the build copies what git tracks, so make finds no ./configure.
void writeCheckoutIgnoringConfigure(const QString &root)
{
    writeFailingTree(root, "cd ../deps && ./configure");
    writeTreeFile(root + QStringLiteral("/deps/configure"), "#!/bin/sh\necho configured\n", true);
    writeTreeFile(root + QStringLiteral("/deps/README"), "the dependencies\n");
    writeTreeFile(root + QStringLiteral("/.gitignore"), "configure\n");
    QVERIFY(runGit(root, {QStringLiteral("init"), QStringLiteral("-q")}));
    QVERIFY(runGit(root, {QStringLiteral("add"), QStringLiteral(".")}));
    QVERIFY(runGit(root, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("tree")}));
}

} // namespace

class TestMakeFailures : public QObject {
    Q_OBJECT
private slots:
    void firstCompilerErrorIsShownNotTheLastLine()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("tree"));
        writeFailingTree(tree, "echo '    CC server.o'; echo \"src/server.c:12:5: error: expected ';' before 'return'\"; false");
        const Outcome<BuiltServer> built = SourceBuilder(dir.filePath(QStringLiteral("cache"))).build(tree);
        QVERIFY(!built);
        // make in src/, building the two programs the cache keeps.
        QVERIFY2(built.error().startsWith(QStringLiteral("build failed at step 'make': make -C src -j")), qPrintable(built.error()));
        QVERIFY2(built.error().contains(QLatin1String(" BUILD_TLS=yes valkey-server valkey-cli (exit 2), first error: src/server.c:12:5: "
                                                      "error: expected ';' before 'return'; log: ")),
                 qPrintable(built.error()));
        QVERIFY2(!built.error().contains(QLatin1String("other job line")), qPrintable(built.error()));
        QVERIFY2(!built.error().contains(QLatin1String("git ignores")), qPrintable(built.error()));
    }

    void ignoredFileOfACheckoutIsNamed()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("checkout"));
        writeCheckoutIgnoringConfigure(tree);
        const Outcome<BuiltServer> built = SourceBuilder(dir.filePath(QStringLiteral("cache"))).build(tree);
        QVERIFY(!built);
        QVERIFY2(built.error().contains(QLatin1String("first error: /bin/sh: 1: ./configure: not found; log: ")), qPrintable(built.error()));
        QVERIFY2(built.error().endsWith(QStringLiteral(". deps/configure is in %1 but git ignores it, and a build copies only the files git "
                                                       "tracks or would track from a checkout: track it (git add -f) or build a copy of "
                                                       "the tree that is not a git checkout")
                                            .arg(tree)),
                 qPrintable(built.error()));
    }

    void commandLineShowsTheFirstError()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("checkout"));
        writeCheckoutIgnoringConfigure(tree);
        VersusCli cli;
        cli.environment().insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("xdg-cache")));
        const VersusCli::Result result = cli.run({QStringLiteral("build"), tree}, 120000);
        QVERIFY2(result.finished && result.exitCode != 0, result.describe());
        QVERIFY2(result.err.contains(QLatin1String("first error: /bin/sh: 1: ./configure: not found")), result.describe());
        QVERIFY2(result.err.contains(QLatin1String("deps/configure is in ")), result.describe());
    }

    void linkIsAStepOfItsOwn()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("tree"));
        // Valkey's Makefile colours its lines.
        writeFailingTree(tree, "printf '    \\033[34mCC\\033[0m \\033[33mserver.o\\033[0m\\n'; "
                               "printf '    \\033[34;1mLINK\\033[0m \\033[37;1mvalkey-server\\033[0m\\n'; sleep 1; false");
        SourceBuilder builder(dir.filePath(QStringLiteral("cache")));
        QStringList steps;
        builder.setProgress([&steps](const BuildProgress &progress) {
            if (progress.step == QLatin1String("make") || progress.step == QLatin1String("link"))
                steps << progress.step + QLatin1String(": ") + progress.detail;
        });
        QVERIFY(!builder.build(tree));
        QCOMPARE(steps, (QStringList{QStringLiteral("make: compiling server.o (1 files so far)"),
                                     QStringLiteral("link: linking valkey-server (1 files compiled)")}));
    }
};

QTEST_GUILESS_MAIN(TestMakeFailures)
#include "tst_makefailures.moc"
