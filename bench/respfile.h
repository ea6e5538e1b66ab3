#pragma once
// A workload's commands as the RESP bytes Versus sends, written to a file so that
// `valkey-cli --pipe`, the reference client, can send exactly the same stream.
// Header-only: each bench_*.cpp is its own program.

#include "benchsupport.h"
#include "workload.h"

#include <QFile>
#include <string>

namespace Bench {

struct RespFile {
    long long events = 0;
    long long commands = 0;
};

inline RespFile writeRespFile(const Workload &workload, const QString &path)
{
    Outcome<std::unique_ptr<CommandSource>> source = workload.open();
    if (!source)
        fail(source.error());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        fail(QStringLiteral("%1: %2").arg(path, file.errorString()));
    RespFile written;
    EventCommands event;
    std::string buffer;
    while (source.value()->next(event)) {
        ++written.events;
        for (const WorkloadCommand &command : event.commands) {
            appendResp(command, buffer);
            ++written.commands;
        }
        event.clear();
        if (buffer.size() > (1 << 20)) {
            file.write(buffer.data(), qint64(buffer.size()));
            buffer.clear();
        }
    }
    if (!source.value()->error().isEmpty())
        fail(source.value()->error());
    if (file.write(buffer.data(), qint64(buffer.size())) != qint64(buffer.size()) || !file.flush())
        fail(QStringLiteral("%1: %2").arg(path, file.errorString()));
    return written;
}

} // namespace Bench
