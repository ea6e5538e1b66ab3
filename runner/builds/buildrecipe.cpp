#include "buildrecipe.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QRegularExpression>

namespace {

// Raised when the recipe changes in a way that changes the binary.
const QLatin1String kRecipeVersion("versus-build/1");

// Labels name cache folders and series: lower case letters, digits, '.', '_' and '-'.
QString labelPart(const QString &text)
{
    QString part = text.toLower();
    part.replace(QRegularExpression(QStringLiteral("[^a-z0-9._-]+")), QStringLiteral("-"));
    part.remove(QRegularExpression(QStringLiteral("^[-.]+|[-.]+$")));
    return part.left(40);
}

} // namespace

Outcome<BuildRecipe> BuildRecipe::onThisMachine()
{
    QProcess compiler;
    compiler.setProcessChannelMode(QProcess::MergedChannels);
    compiler.setStandardInputFile(QProcess::nullDevice());
    compiler.start(QStringLiteral("cc"), {QStringLiteral("--version")});
    if (!compiler.waitForStarted(10000) || !compiler.waitForFinished(10000) || compiler.exitCode() != 0)
        return Error{QStringLiteral("no C compiler: `cc --version` did not answer (install build-essential)")};
    BuildRecipe recipe;
    recipe.makeVariables = {QStringLiteral("BUILD_TLS=yes")};
    recipe.compiler = QString::fromLocal8Bit(compiler.readAll()).section(QLatin1Char('\n'), 0, 0).trimmed();
    return recipe;
}

QString BuildRecipe::signature() const
{
    return QStringList{kRecipeVersion, makeVariables.join(QLatin1Char(' ')), compiler}.join(QLatin1Char('\n'));
}

QString BuildRecipe::buildKey(const BuildSource &source) const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(signature().toUtf8());
    hash.addData(QByteArrayView("\n", 1));
    hash.addData((source.kind == BuildSource::Kind::Tarball ? source.tarballSha256 : source.contentSha256).toLatin1());
    return QString::fromLatin1(hash.result().toHex());
}

QString buildLabel(const BuildSource &source)
{
    const QString product = source.product;
    if (source.kind == BuildSource::Kind::Tarball)
        return QStringLiteral("%1-%2-upstream").arg(product, labelPart(source.version));
    if (!source.gitSha.isEmpty()) {
        const QString branch = source.gitBranch.isEmpty() ? QStringLiteral("detached") : labelPart(source.gitBranch);
        return QStringLiteral("%1-%2-%3%4").arg(product, branch, source.gitSha.left(8),
                                                source.dirty ? QStringLiteral("-dirty") : QString());
    }
    return QStringLiteral("%1-%2-src-%3").arg(product, labelPart(source.version), source.contentSha256.left(8));
}

QStringList installedPrograms(const QString &product)
{
    return {product + QStringLiteral("-server"), product + QStringLiteral("-cli")};
}
