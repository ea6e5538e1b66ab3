#pragma once
// The folder a product's version is built in, kept in the cache between builds
// (<cache>/.builds/<product>-<version>/) so that a changed file builds again in a minute
// rather than from nothing. The source is copied in file by file: a file whose content is
// unchanged keeps its old time, a changed one gets a new time, so make's own dependency
// tracking rebuilds what depends on it. The user's tree is only read.
//
// Built from nothing (the folder emptied first) when anything make does not track may have
// changed: the recipe's signature, a file under deps/ (deps are built once), a build that was
// cancelled part way (a killed compiler may leave a cut object), or a state that cannot be read.

#include "buildsource.h"

#include <QString>
#include <map>

struct SyncResult {
    bool fromNothing = false;
    int copied = 0;
    int removed = 0;
};

class WorkTree {
public:
    // `folder`: <cache>/.builds/<product>-<version>
    explicit WorkTree(QString folder);

    QString treePath() const;   // where make runs
    QString logPath() const;    // the last build's output

    // Makes the tree hold exactly `source`'s files. A file whose copy is not the content that
    // was hashed (the tree changed since) is an error naming it: the build's label would lie.
    // `stop` ends the copy between files and chunks ("cancelled").
    Outcome<SyncResult> sync(const BuildSource &source, const QString &signature, const StopRequested &stop = {});
    // After a cancelled or killed build: the next one starts from nothing.
    void distrust();
    // Around make: a marker that only a make that ended by itself removes, so a build whose
    // Versus was killed (SIGKILL leaves no chance to distrust()) starts the next from nothing.
    Status beginMake() const;
    void endMake() const;

private:
    QString statePath() const;
    QString makingPath() const;
    bool needsFromNothing(const BuildSource &source, const std::map<QString, QString> &before) const;
    Status writeState(const BuildSource &source, const QString &signature) const;

    QString m_folder;
};
