#include "releasenotes.h"

#include "boundedfile.h"
#include "buildorigin.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <QFile>

namespace {

// "Valkey 8.0.1  -  Released …", "Valkey 8.0.0 GA - …", "Redis 7.2.0 RC1 …": a section's head.
const QRegularExpression &releaseNotesSectionHead()
{
    static const QRegularExpression head(QStringLiteral("^(?:Valkey|Redis)(?: OSS)?\\s+(\\d+\\.\\d+\\.\\d+)(?:\\s+(RC\\d+))?\\b"),
                                         QRegularExpression::CaseInsensitiveOption);
    return head;
}

struct ReleaseNotesParser {
    ReleaseNotes notes;
    QString version;
    QString bullet;

    void endBullet()
    {
        if (bullet.isEmpty())
            return;
        if (int(notes.entries.size()) >= releaseNotesEntryCap) {
            if (notes.capped.isEmpty())
                notes.capped = QStringLiteral("the first %1 entries").arg(releaseNotesEntryCap);
        } else {
            notes.entries.push_back({version, bullet.simplified().left(releaseNoteTextCap)});
        }
        bullet.clear();
    }

    void line(const QString &text)
    {
        const QString trimmed = text.trimmed();
        if (const QRegularExpressionMatch head = releaseNotesSectionHead().match(trimmed); head.hasMatch()) {
            endBullet();
            version = head.captured(1);
            if (!head.captured(2).isEmpty())
                version += QLatin1Char('-') + head.captured(2).toLower();
            return;
        }
        if (version.isEmpty())
            return;
        if (trimmed.startsWith(QLatin1String("* ")) || trimmed.startsWith(QLatin1String("- "))) {
            endBullet();
            bullet = trimmed.mid(2);
        } else if (!bullet.isEmpty() && !trimmed.isEmpty() && text.at(0).isSpace()) {
            // A bullet goes on over indented lines; anything else ends it. Stop growing a bullet
            // past what is kept of it.
            if (bullet.size() <= releaseNoteTextCap)
                bullet += QLatin1Char(' ') + trimmed;
        } else {
            endBullet();
        }
    }
};

} // namespace

ReleaseNotes parseReleaseNotes(const QByteArray &text, const QString &source)
{
    ReleaseNotesParser parser;
    parser.notes.source = source;
    if (text.contains('\0')) {
        parser.notes.capped = QStringLiteral("not text (it holds NUL bytes): no entries read");
        return parser.notes;
    }
    for (const QByteArray &line : text.split('\n'))
        parser.line(QString::fromUtf8(line.left(releaseNoteTextCap * 4)));
    parser.endBullet();
    return parser.notes;
}

Outcome<ReleaseNotes> readReleaseNotes(const QString &path, const QString &source)
{
    const Outcome<int> descriptor = openRegularFile(path, QStringLiteral("release notes"));
    if (!descriptor)
        return Error{descriptor.error()};
    QFile file;
    if (!file.open(descriptor.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
        return Error{QStringLiteral("%1: cannot read release notes: %2").arg(path, file.errorString())};
    const qint64 size = file.size();
    const QByteArray text = file.read(releaseNotesByteCap);
    ReleaseNotes notes = parseReleaseNotes(text, source);
    if (size > releaseNotesByteCap)
        notes.capped = QStringLiteral("the first %1 bytes of %2").arg(releaseNotesByteCap).arg(size);
    return notes;
}

void keepReleaseNotesAfter(ReleaseNotes &notes, const QVersionNumber &version)
{
    notes.entries.erase(std::remove_if(notes.entries.begin(), notes.entries.end(),
                                       [&version](const ReleaseNoteEntry &entry) {
                                           return QVersionNumber::fromString(entry.version) <= version;
                                       }),
                        notes.entries.end());
}

ReleaseNotes releaseNotesOfBuild(const BuildOrigin &origin, const QString &binaryPath, const QString &product,
                                 const QString &version, const QString &cacheRoot)
{
    const QString name = QStringLiteral("00-RELEASENOTES");
    std::vector<std::pair<QString, QString>> places;   // path, how the notes are named
    if (!binaryPath.isEmpty())
        places.emplace_back(QFileInfo(binaryPath).dir().filePath(QStringLiteral("../") + name),
                            QStringLiteral("%1 installed with %2").arg(name, QFileInfo(binaryPath).fileName()));
    if (origin.kind == BuildKind::UpstreamBuild && !origin.source.isEmpty()) {
        if (QFileInfo(origin.source).isAbsolute())
            places.emplace_back(QDir(origin.source).filePath(name), QStringLiteral("%1 of %2").arg(name, origin.source));
        else if (!cacheRoot.isEmpty() && origin.source.startsWith(product + QLatin1Char('-') + version))
            places.emplace_back(QDir(cacheRoot).filePath(QStringLiteral(".builds/%1-%2/tree/%3").arg(product, version, name)),
                                QStringLiteral("%1 of %2").arg(name, origin.source));
    }
    for (const auto &[path, source] : places) {
        if (!QFileInfo(path).isFile())
            continue;
        if (Outcome<ReleaseNotes> notes = readReleaseNotes(path, source); notes)
            return std::move(notes.value());
    }
    return {};
}
