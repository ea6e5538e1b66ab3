#pragma once
// Running the build's tools: tar to unpack a tarball, and make over a work tree, each in a
// process group of its own that is ended as a whole on cancel or when Versus dies. make's
// output goes to a log file and, line by line, to a progress estimate.

#include "buildsource.h"
#include "outcome.h"

#include <QString>
#include <QStringList>
#include <functional>

// tar -xf `tarball` -C `folder`, refusing members that would land outside it; `stop` ends tar
// ("cancelled").
Status unpackTarball(const QString &tarball, const QString &folder, const std::function<bool()> &stop = {});

// The compilations a build from nothing makes, roughly: the C files of the tree.
int expectedCompilations(const BuildSource &source);

// The progress percentage `compiled` of `expected` compilations is: below 100 until make ends.
int compilationPercent(int compiled, int expected);
// Whether a line of make's output is one compilation (Valkey's "    CC server.o", or a
// compiler command with -c from deps/); the name compiled, or empty.
QString compiledFileOf(const QString &line);
// Whether a line of make's output is a link (Valkey's and Redis's "    LINK valkey-server", or a
// compiler command with -o and no -c); the program linked, or empty.
QString linkedFileOf(const QString &line);
// Whether a line of make's output says something failed: the compiler's or linker's "error:"
// ("fatal error:", "undefined reference"), the shell's ("./configure: not found", "No such
// file or directory", "Permission denied") or make's own ("make[2]: *** … Error 127", "No rule
// to make target", "Makefile:360: *** missing separator"). The first such line is the cause; make's last line only says it stopped.
bool isBuildErrorLine(const QString &line);

// What make is doing when it reports progress: compiling files, or linking a program (which
// can take minutes after the last compilation).
enum class MakeStage { Compiling, Linking };

class MakeRun {
public:
    // make runs in the tree's src/ (the top-level Makefile only passes its target on there, and
    // two targets passed through it race under -j) and builds `targets` alone: the programs
    // the build installs, not valkey-benchmark, whose link-time optimisation is a sixth of a
    // rebuild's compiler time.
    MakeRun(QString treePath, QString logPath, QStringList variables, QStringList targets, int jobs);

    void setExpectedCompilations(int expected) { m_expected = expected; }
    void setProgress(std::function<void(MakeStage stage, int percent, const QString &detail)> progress) { m_progress = std::move(progress); }
    void setCancelled(std::function<bool()> cancelled) { m_cancelled = std::move(cancelled); }

    // make -C src -j<jobs> <variables> <targets> in the tree; the error says the exit code, the first line of
    // make's output that says what failed (else its last lines) and the log.
    Status run();
    bool wasCancelled() const { return m_wasCancelled; }
    // The first line of make's output that isBuildErrorLine(), colours removed; empty when none.
    QString firstError() const { return m_firstError; }

private:
    void readOutput(QByteArray &pending, class QIODevice &device, class QFile &log);
    void readLine(const QString &line);
    void report(MakeStage stage, const QString &detail) const;

    QString m_treePath;
    QString m_logPath;
    QStringList m_variables;
    QStringList m_targets;
    int m_jobs = 0;
    int m_expected = 0;
    int m_compiled = 0;
    QString m_lastLines;
    QString m_firstError;
    std::function<void(MakeStage, int, const QString &)> m_progress;
    std::function<bool()> m_cancelled;
    bool m_wasCancelled = false;
};
