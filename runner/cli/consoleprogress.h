#pragma once
// Progress of a headless run on stderr: on a terminal one live line per server with a bar,
// percentage, rate and ETA; otherwise plain periodic lines so CI logs stay readable.

#include "runrequest.h"
#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <cstdio>
#include <vector>

class RunController;

class ConsoleProgress : public QObject {
    Q_OBJECT
public:
    ConsoleProgress(RunController &controller, std::FILE *stream, bool interactive);

    // A new block of lines under `title` (a sweep's next point, "value-size=64 (3 of 7)"): the
    // rows so far stay above it as they last read.
    void beginSection(const QString &title);

    // One line for one server, e.g. "valkey-8.0.1  [#######·····]  58%  12,345 ev/s  ETA 4s  timed pass".
    static QString formatLine(const ServerProgress &progress, int labelWidth, bool withBar);

private:
    void onProgress(const ServerProgress &progress);
    void onLog(const QString &serverId, const QString &line);
    void redraw();

    std::FILE *m_stream;
    bool m_interactive;
    std::vector<ServerProgress> m_rows;
    int m_drawnRows = 0;
    QElapsedTimer m_sincePlain;
    QString m_section;
};
