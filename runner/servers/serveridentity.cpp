#include "serveridentity.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

namespace {

// Long junk is cut so an error message stays one readable line.
QString quoted(const QString &text)
{
    QString shown = text.simplified();
    const int limit = 160;
    if (shown.size() > limit)
        shown = shown.left(limit) + QStringLiteral("…");
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

QString firstNonEmptyLine(const QString &output)
{
    const QStringList lines = output.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QString trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            return trimmed;
    }
    return QString();
}

} // namespace

QString ServerIdentity::knownGitSha() const
{
    static const QRegularExpression zeros(QStringLiteral("^0*$"));
    return zeros.match(gitSha).hasMatch() ? QString() : gitSha;
}

QString ServerIdentity::label() const
{
    if (!isDevelopmentBuild())
        return product + QLatin1Char('-') + version;
    const QString sha = knownGitSha();
    return product + QStringLiteral("-dev") + (sha.isEmpty() ? QString() : QLatin1Char('-') + sha.left(8));
}

QString labelForServer(const ServerIdentity &identity, const QString &binaryPath)
{
    if (!identity.isDevelopmentBuild() || !identity.knownGitSha().isEmpty() || binaryPath.isEmpty())
        return identity.label();
    // A build tree's binary sits in src/ (or bin/): the folder above names the checkout.
    QDir folder = QFileInfo(binaryPath).absoluteDir();
    if (folder.dirName() == QLatin1String("src") || folder.dirName() == QLatin1String("bin"))
        folder.cdUp();
    return identity.label() + QLatin1Char('-') + folder.dirName();
}

QString ServerIdentity::displayName() const
{
    if (product.isEmpty())
        return version;
    QString name = product;
    name[0] = name[0].toUpper();
    if (isDevelopmentBuild())
        return name + QStringLiteral(" dev build") + (knownGitSha().isEmpty() ? QString() : QLatin1Char(' ') + knownGitSha().left(8));
    return version.isEmpty() ? name : name + QLatin1Char(' ') + version;
}

Outcome<ServerIdentity> parseServerVersionOutput(const QString &output)
{
    const QString line = firstNonEmptyLine(output);
    if (line.isEmpty())
        return Error{QStringLiteral("not a Valkey or Redis server: --version printed nothing")};

    // "Valkey server v=9.1.2 sha=00000000:0 malloc=jemalloc-5.3.1 bits=64 build=9108e8f1788612b"
    static const QRegularExpression head(QStringLiteral("^(Valkey|Redis) server (.*)$"));
    const QRegularExpressionMatch headMatch = head.match(line);
    if (!headMatch.hasMatch())
        return Error{QStringLiteral("not a Valkey or Redis server: --version printed %1").arg(quoted(output))};

    ServerIdentity identity;
    identity.product = headMatch.captured(1).toLower();
    const QStringList fields = headMatch.captured(2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &field : fields) {
        const int equals = field.indexOf(QLatin1Char('='));
        if (equals <= 0)
            continue;
        const QString key = field.left(equals);
        const QString value = field.mid(equals + 1);
        if (key == QLatin1String("v"))
            identity.version = value;
        else if (key == QLatin1String("sha"))
            identity.gitSha = value.section(QLatin1Char(':'), 0, 0);  // ":0"/":1" is the dirty flag
        else if (key == QLatin1String("malloc"))
            identity.allocator = value;
        else if (key == QLatin1String("build"))
            identity.buildId = value;
        else if (key == QLatin1String("bits"))
            identity.bits = value.toInt();
    }

    // Dev builds report odd but still dotted numeric versions such as 255.255.255.
    static const QRegularExpression dottedVersion(QStringLiteral("^\\d+(\\.\\d+){1,3}([-+~][0-9A-Za-z.-]+)?$"));
    if (!dottedVersion.match(identity.version).hasMatch())
        return Error{QStringLiteral("%1 server without a version (v=x.y.z): --version printed %2")
                         .arg(headMatch.captured(1), quoted(output))};
    return identity;
}
