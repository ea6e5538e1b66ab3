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

class MakeRun {
public:
    MakeRun(QString treePath, QString logPath, QStringList variables, int jobs);

    void setExpectedCompilations(int expected) { m_expected = expected; }
    void setProgress(std::function<void(int percent, const QString &detail)> progress) { m_progress = std::move(progress); }
    void setCancelled(std::function<bool()> cancelled) { m_cancelled = std::move(cancelled); }

    // make -j<jobs> <variables> in the tree; the error says the exit code and the log.
    Status run();
    bool wasCancelled() const { return m_wasCancelled; }

private:
    void readOutput(QByteArray &pending, class QIODevice &device, class QFile &log);

    QString m_treePath;
    QString m_logPath;
    QStringList m_variables;
    int m_jobs = 0;
    int m_expected = 0;
    int m_compiled = 0;
    QString m_lastLines;
    std::function<void(int, const QString &)> m_progress;
    std::function<bool()> m_cancelled;
    bool m_wasCancelled = false;
};
