#include "captureworkload.h"

#include "chunkedreader.h"
#include "interruption.h"
#include "monitorscript.h"

#include <QCryptographicHash>
#include <algorithm>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace {

const size_t maxCaptureLineLength = 4u << 20;   // 4 MiB; larger values belong in RESP captures
const size_t maxRespBulk = 64u << 20;
const char *const captureType = "capture";
const char *const malformedLabel = "malformed line";

class CaptureSource : public CommandSource {
public:
    CaptureSource(CaptureFormat format, bool lenient, const QString &displayName)
        : m_format(format), m_lenient(lenient), m_displayName(displayName) {}

    bool open(const QString &path)
    {
        if (!m_reader.open(path)) {
            m_error = m_reader.error();
            return false;
        }
        return true;
    }

    bool next(EventCommands &out) override
    {
        if (!m_error.isEmpty())
            return false;
        for (;;) {
            const bool got = m_format == CaptureFormat::Resp ? nextResp() : nextLine();
            if (!got)
                return false;
            const std::string refused = refusedCommand(m_args);
            if (!refused.empty()) {
                ++m_skipped[refused];
                continue;
            }
            out.clear();
            WorkloadCommand &command = out.add();
            command.type.assign(captureType);
            command.args.swap(m_args);
            return true;
        }
    }

    QString error() const override { return m_error; }
    std::map<std::string, long long> skipped() const override { return m_skipped; }
    // With --lenient: where the first skipped malformed line was and what was wrong with it.
    QString firstMalformed() const { return m_firstMalformed; }

private:
    bool fail(const QString &message)
    {
        m_error = message;
        return false;
    }

    // Next sendable-or-refused command from a line format; false at the end or on error.
    bool nextLine()
    {
        std::string_view line;
        for (;;) {
            if (!m_reader.nextLine(line, maxCaptureLineLength)) {
                if (!m_reader.error().isEmpty())
                    return fail(QString(m_reader.error()).replace(m_reader.path(), m_displayName));
                return false;
            }
            std::string problem;
            bool ok = true;
            if (m_format == CaptureFormat::Monitor) {
                const MonitorLineKind kind = parseMonitorLine(line, m_args, problem);
                if (kind == MonitorLineKind::Ignored)
                    continue;
                if (kind == MonitorLineKind::Command && m_scriptLines.ranByReplayedScript(line, m_args)) {
                    ++m_skipped[kScriptLineLabel];
                    continue;
                }
                ok = kind == MonitorLineKind::Command;
            } else {
                size_t first = 0;
                while (first < line.size() && (line[first] == ' ' || line[first] == '\t'))
                    ++first;
                if (first == line.size() || line[first] == '#')
                    continue;   // blank lines and comments
                if (!m_sawCommandLine && line.substr(first) == "OK")
                    continue;   // the reply valkey-cli prints before its first line
                m_sawCommandLine = true;
                ok = splitCommandLine(line, m_args, problem);
            }
            if (ok && !isCommandName(m_args.front())) {
                problem = "'" + m_args.front().substr(0, 40) + "' is not a command name";
                ok = false;
            }
            if (ok)
                return true;
            if (m_lenient) {
                if (m_skipped[malformedLabel]++ == 0)
                    m_firstMalformed = QStringLiteral("line %1: %2").arg(m_reader.lineNumber())
                                           .arg(QString::fromStdString(problem));
                continue;
            }
            return fail(QStringLiteral("%1:%2: %3").arg(m_displayName).arg(m_reader.lineNumber())
                            .arg(QString::fromStdString(problem)));
        }
    }

    bool nextResp()
    {
        for (;;) {
            const std::string_view buffered = m_reader.buffered();
            if (buffered.empty() && m_reader.atEnd())
                return false;
            size_t consumed = 0;
            std::string problem;
            const RespParse state = parseRespCommand(m_reader.buffered(), m_args, consumed, problem, maxRespBulk);
            if (state == RespParse::Complete) {
                m_reader.consume(consumed);
                ++m_commandNumber;
                if (!isCommandName(m_args.front()))
                    return fail(QStringLiteral("%1: command %2 at byte %3: '%4' is not a command name")
                                    .arg(m_displayName).arg(m_commandNumber).arg(m_reader.offset() - (long long)consumed)
                                    .arg(QString::fromStdString(m_args.front().substr(0, 40))));
                return true;
            }
            if (state == RespParse::Malformed)
                return fail(QStringLiteral("%1: command %2 at byte %3: %4").arg(m_displayName).arg(m_commandNumber + 1)
                                .arg(m_reader.offset()).arg(QString::fromStdString(problem)));
            // Doubling what is buffered: a 512 MiB command is parsed a dozen times, not 512.
            const size_t have = m_reader.buffered().size();
            if (!m_reader.ensure(std::max(have + 1, have * 2)) && m_reader.buffered().size() == have) {
                if (!m_reader.error().isEmpty())
                    return fail(m_reader.error());
                return fail(QStringLiteral("%1: command %2 at byte %3: the file ends inside the command")
                                .arg(m_displayName).arg(m_commandNumber + 1).arg(m_reader.offset()));
            }
        }
    }

    CaptureFormat m_format;
    bool m_lenient;
    QString m_displayName;
    ChunkedReader m_reader;
    std::vector<std::string> m_args;
    std::map<std::string, long long> m_skipped;
    ScriptLineFilter m_scriptLines;
    long long m_commandNumber = 0;
    bool m_sawCommandLine = false;
    QString m_error;
    QString m_firstMalformed;
};

// --lenient is for a few damaged lines (a capture cut off mid-line), not for a file of
// another format: more than this share of malformed lines fails the workload.
const long long maxMalformedPercent = 1;

Status checkMalformedShare(const QString &name, CaptureFormat format, long long commands,
                           const std::map<std::string, long long> &skipped, const QString &firstMalformed)
{
    const auto found = skipped.find(malformedLabel);
    const long long malformed = found == skipped.end() ? 0 : found->second;
    long long lines = 0;
    for (const auto &entry : skipped)
        lines += entry.second;
    lines += commands;
    if (malformed <= std::max(1LL, lines * maxMalformedPercent / 100))
        return Status::success();
    return Error{QStringLiteral("%1: %2 of %3 command lines are malformed (first at %4); --lenient skips at "
                                "most %5% of the lines or one line, so this does not look like %6")
                     .arg(name).arg(malformed).arg(lines).arg(firstMalformed).arg(maxMalformedPercent)
                     .arg(format == CaptureFormat::Monitor ? QStringLiteral("MONITOR output")
                                                           : QStringLiteral("a command file"))};
}

} // namespace

CaptureWorkload::CaptureWorkload(const QString &path, CaptureFormat format, bool lenient)
    : m_path(path), m_format(format), m_lenient(lenient)
{
}

Outcome<std::unique_ptr<CommandSource>> CaptureWorkload::open() const
{
    auto source = std::make_unique<CaptureSource>(m_format, m_lenient, QFileInfo(m_path).fileName());
    if (!source->open(m_path))
        return Error{source->error()};
    return std::unique_ptr<CommandSource>(std::move(source));
}

Status CaptureWorkload::countPass() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_counted)
        return m_countStatus;
    m_counted = true;
    WorkloadInfo &d = m_description;
    d.name = QStringLiteral("capture");
    d.sourceFile = m_path;
    d.types = QStringList{QString::fromLatin1(captureType)};
    d.unsupportedByCommand = true;
    d.parameters[QStringLiteral("format")] = QString::fromLatin1(captureFormatName(m_format));
    d.parameters[QStringLiteral("lenient")] = m_lenient ? QStringLiteral("yes") : QStringLiteral("no");
    {
        QFile file(m_path);
        if (file.open(QIODevice::ReadOnly)) {
            QCryptographicHash hash(QCryptographicHash::Sha256);
            hash.addData(&file);
            d.sourceSha256 = QString::fromLatin1(hash.result().toHex());
        }
    }
    const QString displayName = QFileInfo(m_path).fileName();
    CaptureSource source(m_format, m_lenient, displayName);
    if (!source.open(m_path)) {
        m_countStatus = Error{source.error()};
        return m_countStatus;
    }
    EventCommands event;
    long long events = 0;
    QSet<QString> names;
    while (source.next(event)) {
        if ((++events & 0xFFF) == 0 && interruptRequested()) {
            m_countStatus = Error{QStringLiteral("%1: interrupted while preparing the workload").arg(m_path)};
            return m_countStatus;
        }
        for (const WorkloadCommand &command : event.commands) {
            if (!command.args.empty())
                names.insert(QString::fromStdString(command.args.front()).toUpper());
        }
    }
    d.commandNames = QStringList(names.begin(), names.end());
    d.commandNames.sort();
    if (!source.error().isEmpty()) {
        m_countStatus = Error{source.error()};
        return m_countStatus;
    }
    d.events = events;
    d.commands = events;
    m_skipped = source.skipped();
    m_countStatus = checkMalformedShare(displayName, m_format, events, m_skipped, source.firstMalformed());
    long long skipped = 0;
    for (const auto &entry : m_skipped) {
        skipped += entry.second;
        d.skipped[QString::fromStdString(entry.first)] = entry.second;
    }
    d.parameters[QStringLiteral("skipped")] = QString::number(skipped);
    return m_countStatus;
}

WorkloadInfo CaptureWorkload::describe() const
{
    countPass();
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_description;
}

std::map<std::string, long long> CaptureWorkload::skippedInPass() const
{
    countPass();
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_skipped;
}
