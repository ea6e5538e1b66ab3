// The window's source build (Add source tree…): progress reaches the dialog from the build's
// thread, a build already in the cache is accepted with its label, a failure stays open naming
// the step, and Cancel ends the build and leaves nothing in the cache.

#include "servertesthelpers.h"
#include "sourcebuilddialog.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTest>

class TestSourceBuildDialog : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        if (ServerTestHelpers::releaseTarball801().isEmpty()) {
            const QString why = QStringLiteral("no valkey-8.0.1 tarball in %1/.sources (run scripts/fetch-servers --upstream)")
                                    .arg(ServerTestHelpers::serverCacheDir());
            if (ServerTestHelpers::runningInCi())
                QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
    }

    void builtReleaseIsAccepted()
    {
        // Another build in the real cache (another suite's) is waited for, however long it takes.
        SourceBuildDialog dialog(ServerTestHelpers::releaseTarball801(), ServerTestHelpers::serverCacheDir());
        dialog.show();
        dialog.start();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.result() == int(QDialog::Accepted) || !dialog.errorText().isEmpty(), 600000);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.builtLabel(), QStringLiteral("valkey-8.0.1-upstream"));
        QCOMPARE(dialog.findChild<QProgressBar *>()->value(), 100);
    }

    void failureStaysOpenNamingTheStep()
    {
        QTemporaryDir notATree;
        SourceBuildDialog dialog(notATree.path(), ServerTestHelpers::serverCacheDir());
        dialog.show();
        dialog.start();
        QTRY_VERIFY(!dialog.errorText().isEmpty());
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));   // not closed: still 0
        QCOMPARE(dialog.errorText(), QStringLiteral("build failed at step 'source': %1: not a Valkey or Redis source tree (no src/version.h)")
                                         .arg(notATree.path()));
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("buildDetail"))->text(), dialog.errorText());
    }

    // A tree whose make fails: the dialog shows make's first error (the compiler's), which
    // fifty lines of other output followed, not make's last line.
    void failedMakeShowsItsFirstError()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QVERIFY(QDir().mkpath(tree + QStringLiteral("/src")));
        const std::pair<QString, QByteArray> files[] = {
            {QStringLiteral("/src/version.h"), "#define VALKEY_VERSION \"8.0.1\"\n"},
            {QStringLiteral("/src/server.c"), "int main(void) { return 0; }\n"},
            {QStringLiteral("/src/Makefile"), "valkey-cli: valkey-server\nvalkey-server:\n\t@echo \"src/server.c:3:1: error: unknown type name 'robj2'\"; "
                                          "for i in $$(seq 50); do echo \"    other job line $$i\"; done; false\n"}};
        for (const auto &[name, content] : files) {
            QFile file(tree + name);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }
        SourceBuildDialog dialog(tree, dir.filePath(QStringLiteral("cache")));
        dialog.show();
        dialog.start();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.errorText().isEmpty(), 60000);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.stepText(), QStringLiteral("The build failed"));
        const QString shown = dialog.findChild<QLabel *>(QStringLiteral("buildDetail"))->text();
        QVERIFY2(shown.contains(QLatin1String("first error: src/server.c:3:1: error: unknown type name 'robj2'; log: ")), qPrintable(shown));
        QVERIFY2(!shown.contains(QLatin1String("other job line")), qPrintable(shown));
    }

    void cancelEndsTheBuild()
    {
        QTemporaryDir cache;   // builds from nothing, so there is a make to cancel
        SourceBuildDialog dialog(ServerTestHelpers::releaseTarball801(), cache.path());
        dialog.show();
        dialog.start();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.stepText() == QLatin1String("Step: make"), 60000);
        dialog.reject();
        QCOMPARE(dialog.stepText(), QStringLiteral("Cancelling…"));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isVisible(), 30000);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.errorText().isEmpty());
        QVERIFY(!QFileInfo::exists(cache.filePath(QStringLiteral("valkey-8.0.1-upstream"))));
    }
};

QTEST_MAIN(TestSourceBuildDialog)
#include "tst_sourcebuilddialog.moc"
