// What a source build builds, before anything is built: product and version from version.h,
// the files of a tree (a checkout's as git sees them, another folder's without build products),
// the content hash that keys the cache, the labels, make's progress lines, and the work tree
// that copies only what changed.

#include "buildrecipe.h"
#include "buildsource.h"
#include "makerun.h"
#include "worktree.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

// The smallest folder that reads as a Valkey tree.
void writeTree(const QString &root, const QByteArray &version = "8.0.1")
{
    writeFile(root + QStringLiteral("/src/Makefile"), "valkey-server valkey-cli:\n\ttouch $@\n");
    writeFile(root + QStringLiteral("/src/version.h"),
              "#define SERVER_NAME \"valkey\"\n#define VALKEY_VERSION \"" + version + "\"\n#define REDIS_VERSION \"7.2.4\"\n");
    writeFile(root + QStringLiteral("/src/server.c"), "int main(void) { return 0; }\n");
    writeFile(root + QStringLiteral("/deps/jemalloc/src/jemalloc.c"), "/* jemalloc */\n");
}

bool git(const QString &folder, const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral("git"), QStringList{QStringLiteral("-C"), folder, QStringLiteral("-c"),
                                                     QStringLiteral("user.email=t@example.invalid"), QStringLiteral("-c"),
                                                     QStringLiteral("user.name=t")} + arguments);
    return process.waitForFinished(30000) && process.exitCode() == 0;
}

} // namespace

class TestBuildSource : public QObject {
    Q_OBJECT
private slots:
    void productAndVersion_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("product");
        QTest::addColumn<QString>("version");
        QTest::newRow("valkey") << QByteArray("#define VALKEY_VERSION \"9.1.2\"\n#define REDIS_VERSION \"7.2.4\"\n")
                                << QStringLiteral("valkey") << QStringLiteral("9.1.2");
        QTest::newRow("valkey after redis") << QByteArray("#define REDIS_VERSION \"7.2.4\"\n#define VALKEY_VERSION \"8.0.1\"\n")
                                            << QStringLiteral("valkey") << QStringLiteral("8.0.1");
        QTest::newRow("redis") << QByteArray("#define REDIS_VERSION \"7.0.15\"\n#define REDIS_VERSION_NUM 0x0007000f\n")
                               << QStringLiteral("redis") << QStringLiteral("7.0.15");
        QTest::newRow("neither") << QByteArray("#define SERVER_NAME \"x\"\n") << QString() << QString();
        QTest::newRow("hostile version") << QByteArray("#define VALKEY_VERSION \"8.0.1; rm -rf /\"\n") << QString() << QString();
    }
    void productAndVersion()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, product);
        QFETCH(QString, version);
        const auto found = productAndVersionOf(header, QStringLiteral("/t/src/version.h"));
        if (product.isEmpty()) {
            QVERIFY(!found);
            QVERIFY2(found.error().contains(QLatin1String("/t/src/version.h")), qPrintable(found.error()));
            return;
        }
        QVERIFY2(found, qPrintable(found.error()));
        QCOMPARE(found->first, product);
        QCOMPARE(found->second, version);
    }

    void plainFolderHashesItsSourcesOnly()
    {
        QTemporaryDir dir;
        writeTree(dir.path());
        const auto before = sourceFromTree(dir.path());
        QVERIFY2(before, qPrintable(before.error()));
        QCOMPARE(before->product, QStringLiteral("valkey"));
        QCOMPARE(before->version, QStringLiteral("8.0.1"));
        QCOMPARE(before->files.size(), size_t(4));
        QVERIFY(before->gitSha.isEmpty());
        QCOMPARE(buildLabel(before.value()), QStringLiteral("valkey-8.0.1-src-") + before->contentSha256.left(8));

        // What a build in place writes does not change the content.
        writeFile(dir.filePath(QStringLiteral("src/server.o")), "object");
        writeFile(dir.filePath(QStringLiteral("src/valkey-server")), "binary");
        writeFile(dir.filePath(QStringLiteral("src/.make-settings")), "settings");
        const auto built = sourceFromTree(dir.path());
        QVERIFY(built);
        QCOMPARE(built->contentSha256, before->contentSha256);

        // A changed source does.
        writeFile(dir.filePath(QStringLiteral("src/server.c")), "int main(void) { return 1; }\n");
        const auto changed = sourceFromTree(dir.path());
        QVERIFY(changed);
        QVERIFY(changed->contentSha256 != before->contentSha256);
        QVERIFY(buildLabel(changed.value()) != buildLabel(before.value()));
    }

    void tarballTopFolderIsTheTree()
    {
        QTemporaryDir dir;
        writeTree(dir.filePath(QStringLiteral("valkey-io-valkey-7f1dffe")), "9.1.2");
        const auto source = sourceFromTree(dir.path());
        QVERIFY2(source, qPrintable(source.error()));
        QCOMPARE(source->treeRoot, dir.filePath(QStringLiteral("valkey-io-valkey-7f1dffe")));
        QCOMPARE(source->version, QStringLiteral("9.1.2"));
    }

    void notATree()
    {
        QTemporaryDir dir;
        const auto source = sourceFromTree(dir.path());
        QVERIFY(!source);
        QCOMPARE(source.error(), QStringLiteral("%1: not a Valkey or Redis source tree (no src/version.h)").arg(dir.path()));
        const auto tarball = sourceFromTarball(dir.filePath(QStringLiteral("missing.tar.gz")));
        QVERIFY(!tarball);
        QVERIFY(tarball.error().endsWith(QLatin1String("missing.tar.gz: no such file")));
    }

    void linkOutOfTheTreeIsRefused()
    {
        QTemporaryDir dir;
        QTemporaryDir elsewhere;
        writeTree(dir.path());
        writeFile(elsewhere.filePath(QStringLiteral("secret")), "x");
        QVERIFY(QFile::link(elsewhere.filePath(QStringLiteral("secret")), dir.filePath(QStringLiteral("src/secret.h"))));
        const auto source = sourceFromTree(dir.path());
        QVERIFY(!source);
        QVERIFY2(source.error().contains(QLatin1String("outside the source tree")), qPrintable(source.error()));
    }

    void checkoutIsLabelledByBranchAndSha()
    {
        QTemporaryDir dir;
        writeTree(dir.path());
        writeFile(dir.filePath(QStringLiteral(".gitignore")), "*.o\n");
        QVERIFY(git(dir.path(), {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("My-Branch")}));
        QVERIFY(git(dir.path(), {QStringLiteral("add"), QStringLiteral(".")}));
        QVERIFY(git(dir.path(), {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("x")}));
        const auto clean = sourceFromTree(dir.path());
        QVERIFY2(clean, qPrintable(clean.error()));
        QCOMPARE(clean->gitBranch, QStringLiteral("My-Branch"));
        QCOMPARE(clean->gitSha.size(), 40);
        QVERIFY(!clean->dirty);
        QCOMPARE(buildLabel(clean.value()), QStringLiteral("valkey-my-branch-") + clean->gitSha.left(8));

        writeFile(dir.filePath(QStringLiteral("src/ignored.o")), "object");   // ignored: still clean
        writeFile(dir.filePath(QStringLiteral("src/new.c")), "int x;\n");     // untracked: dirty, in the hash
        const auto dirty = sourceFromTree(dir.path());
        QVERIFY(dirty);
        QVERIFY(dirty->dirty);
        QVERIFY(dirty->files.count(QStringLiteral("src/new.c")));
        QVERIFY(!dirty->files.count(QStringLiteral("src/ignored.o")));
        QVERIFY(dirty->contentSha256 != clean->contentSha256);
        QCOMPARE(buildLabel(dirty.value()), QStringLiteral("valkey-my-branch-") + clean->gitSha.left(8) + QStringLiteral("-dirty"));
    }

    void buildKeyFollowsRecipeAndSource()
    {
        BuildSource source;
        source.contentSha256 = QStringLiteral("aa");
        BuildRecipe recipe{{QStringLiteral("BUILD_TLS=yes")}, QStringLiteral("cc 12")};
        const QString key = recipe.buildKey(source);
        BuildRecipe otherCompiler = recipe;
        otherCompiler.compiler = QStringLiteral("cc 13");
        QVERIFY(otherCompiler.buildKey(source) != key);
        BuildRecipe otherVariables = recipe;
        otherVariables.makeVariables = {QStringLiteral("BUILD_TLS=no")};
        QVERIFY(otherVariables.buildKey(source) != key);
        source.contentSha256 = QStringLiteral("ab");
        QVERIFY(recipe.buildKey(source) != key);
        // A tarball is keyed by its own sha256.
        BuildSource tarball;
        tarball.kind = BuildSource::Kind::Tarball;
        tarball.tarballSha256 = QStringLiteral("aa");
        tarball.contentSha256 = QStringLiteral("zz");
        BuildSource sameTarball = tarball;
        sameTarball.contentSha256 = QStringLiteral("yy");
        QCOMPARE(recipe.buildKey(tarball), recipe.buildKey(sameTarball));
        tarball.product = QStringLiteral("valkey");
        tarball.version = QStringLiteral("8.0.1");
        QCOMPARE(buildLabel(tarball), QStringLiteral("valkey-8.0.1-upstream"));
    }

    void compiledLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("file");
        QTest::newRow("valkey") << QStringLiteral("    \x1b[34mCC\x1b[0m \x1b[33mserver.o\x1b[0m") << QStringLiteral("server.o");
        QTest::newRow("plain") << QStringLiteral("    CC adlist.o") << QStringLiteral("adlist.o");
        QTest::newRow("jemalloc") << QStringLiteral("gcc -std=gnu11 -Wall -O3 -c -D_GNU_SOURCE -o src/arena.sym.o src/arena.c")
                                  << QStringLiteral("arena.c");
        QTest::newRow("link") << QStringLiteral("    \x1b[34;1mLINK\x1b[0m \x1b[37;1mvalkey-server\x1b[0m") << QString();
        QTest::newRow("make") << QStringLiteral("make[1]: Entering directory '/x/src'") << QString();
    }
    void compiledLines()
    {
        QFETCH(QString, line);
        QFETCH(QString, file);
        QCOMPARE(compiledFileOf(line), file);
    }

    void linkedLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("program");
        QTest::newRow("valkey") << QStringLiteral("    \x1b[34;1mLINK\x1b[0m \x1b[37;1mvalkey-server\x1b[0m") << QStringLiteral("valkey-server");
        QTest::newRow("redis") << QStringLiteral("    LINK redis-cli") << QStringLiteral("redis-cli");
        QTest::newRow("compiler") << QStringLiteral("cc -O2 -o bin/lua lua.o liblua.a -lm") << QStringLiteral("lua");
        QTest::newRow("compile") << QStringLiteral("    CC server.o") << QString();
        QTest::newRow("jemalloc") << QStringLiteral("gcc -std=gnu11 -Wall -O3 -c -D_GNU_SOURCE -o src/arena.sym.o src/arena.c") << QString();
    }
    void linkedLines()
    {
        QFETCH(QString, line);
        QFETCH(QString, program);
        QCOMPARE(linkedFileOf(line), program);
    }

    void errorLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("error");
        QTest::newRow("compiler") << QStringLiteral("server.c:12:5: error: expected ';'") << true;
        QTest::newRow("fatal") << QStringLiteral("server.c:1:10: fatal error: foo.h: No such file or directory") << true;
        QTest::newRow("coloured") << QStringLiteral("\x1b[01;31m\x1b[Kerror:\x1b[m\x1b[K no input files") << true;
        QTest::newRow("linker") << QStringLiteral("server.c:(.text+0x1f): undefined reference to `zmalloc'") << true;
        QTest::newRow("shell") << QStringLiteral("/bin/sh: 1: ./configure: not found") << true;
        QTest::newRow("make") << QStringLiteral("make[2]: *** [Makefile:100: jemalloc] Error 127") << true;
        QTest::newRow("makefile") << QStringLiteral("Makefile:360: *** missing separator.  Stop.") << true;
        QTest::newRow("no rule") << QStringLiteral("make: *** No rule to make target 'x.h', needed by 'x.o'.  Stop.") << true;
        QTest::newRow("warning") << QStringLiteral("server.c:3:1: warning: unused variable 'x'") << false;
        QTest::newRow("werror flag") << QStringLiteral("cc -Werror=implicit -c x.c") << false;
        QTest::newRow("entering") << QStringLiteral("make[1]: Entering directory '/x/src'") << false;
    }
    void errorLines()
    {
        QFETCH(QString, line);
        QFETCH(bool, error);
        QCOMPARE(isBuildErrorLine(line), error);
    }

    void percentStaysBelowDoneUntilMakeEnds()
    {
        QCOMPARE(compilationPercent(0, 200), 0);
        QCOMPARE(compilationPercent(100, 200), 50);
        QCOMPARE(compilationPercent(400, 200), 99);
        QCOMPARE(compilationPercent(5, 0), 0);
    }

    void workTreeCopiesOnlyWhatChanged()
    {
        QTemporaryDir source;
        QTemporaryDir builds;
        writeTree(source.path());
        WorkTree tree(builds.filePath(QStringLiteral("valkey-8.0.1")));
        auto first = sourceFromTree(source.path());
        QVERIFY(first);
        const auto cold = tree.sync(first.value(), QStringLiteral("recipe 1"));
        QVERIFY2(cold, qPrintable(cold.error()));
        QVERIFY(cold->fromNothing);
        QCOMPARE(cold->copied, 4);
        writeFile(tree.treePath() + QStringLiteral("/src/server.o"), "built");   // what make left

        writeFile(source.filePath(QStringLiteral("src/server.c")), "int main(void) { return 2; }\n");
        writeFile(source.filePath(QStringLiteral("src/extra.c")), "int y;\n");
        auto second = sourceFromTree(source.path());
        QVERIFY(second);
        const auto warm = tree.sync(second.value(), QStringLiteral("recipe 1"));
        QVERIFY(warm);
        QVERIFY(!warm->fromNothing);
        QCOMPARE(warm->copied, 2);
        QVERIFY(QFileInfo::exists(tree.treePath() + QStringLiteral("/src/server.o")));

        QVERIFY(QFile::remove(source.filePath(QStringLiteral("src/extra.c"))));
        auto third = sourceFromTree(source.path());
        const auto removed = tree.sync(third.value(), QStringLiteral("recipe 1"));
        QVERIFY(removed);
        QCOMPARE(removed->removed, 1);
        QCOMPARE(removed->copied, 0);
        QVERIFY(!QFileInfo::exists(tree.treePath() + QStringLiteral("/src/extra.c")));

        // deps/ are built once: a change there, another recipe, or a distrusted tree builds from nothing.
        writeFile(source.filePath(QStringLiteral("deps/jemalloc/src/jemalloc.c")), "/* changed */\n");
        auto fourth = sourceFromTree(source.path());
        const auto deps = tree.sync(fourth.value(), QStringLiteral("recipe 1"));
        QVERIFY(deps && deps->fromNothing);
        QVERIFY(!QFileInfo::exists(tree.treePath() + QStringLiteral("/src/server.o")));
        const auto recipe = tree.sync(fourth.value(), QStringLiteral("recipe 2"));
        QVERIFY(recipe && recipe->fromNothing);
        const auto same = tree.sync(fourth.value(), QStringLiteral("recipe 2"));
        QVERIFY(same && !same->fromNothing && same->copied == 0);
        tree.distrust();
        const auto distrusted = tree.sync(fourth.value(), QStringLiteral("recipe 2"));
        QVERIFY(distrusted && distrusted->fromNothing);
        // A make that never ended (Versus killed mid-build) leaves its marker: from nothing again.
        QVERIFY(tree.beginMake());
        const auto killed = tree.sync(fourth.value(), QStringLiteral("recipe 2"));
        QVERIFY(killed && killed->fromNothing);
        QVERIFY(tree.beginMake());
        tree.endMake();
        const auto ended = tree.sync(fourth.value(), QStringLiteral("recipe 2"));
        QVERIFY(ended && !ended->fromNothing);
    }
};

QTEST_GUILESS_MAIN(TestBuildSource)
#include "tst_buildsource.moc"
