#include "presentation.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QVersionNumber>
#include <algorithm>
#include <cmath>

QStringList orderedServerIds(const ResultsBundle &bundle)
{
    std::vector<const ServerRun *> runs;
    QStringList bundles;   // of a comparison, in the order they were put together
    for (const ServerRun &run : bundle.servers) {
        runs.push_back(&run);
        if (!bundles.contains(run.bundleName))
            bundles << run.bundleName;
    }
    std::sort(runs.begin(), runs.end(), [&bundles](const ServerRun *a, const ServerRun *b) {
        const bool aValkey = a->product == QLatin1String("valkey");
        const bool bValkey = b->product == QLatin1String("valkey");
        if (aValkey != bValkey)
            return aValkey;
        if (a->product != b->product)
            return a->product < b->product;
        const int byVersion = QVersionNumber::compare(QVersionNumber::fromString(a->version),
                                                      QVersionNumber::fromString(b->version));
        if (byVersion != 0)
            return byVersion < 0;
        // A release before a source tree of its version: the baseline's column comes first.
        if (a->origin.isSourceTree() != b->origin.isSourceTree())
            return b->origin.isSourceTree();
        if (a->bundleName != b->bundleName)
            return bundles.indexOf(a->bundleName) < bundles.indexOf(b->bundleName);
        if (a->topology != b->topology)
            return a->topology.primaries < b->topology.primaries;   // standalone first
        return a->id < b->id;
    });
    QStringList ids;
    for (const ServerRun *run : runs)
        ids << run->id;
    return ids;
}

QString formatFigure(double value)
{
    const double magnitude = std::fabs(value);
    if (magnitude >= 1000)
        return QLocale(QLocale::English).toString(value, 'f', 0);
    if (magnitude >= 10 || value == 0)
        return QString::number(value, 'f', value == 0 ? 0 : 1);
    if (magnitude >= 0.1)
        return QString::number(value, 'f', 2);
    // Small figures keep two significant digits.
    const int decimals = std::min(6, 1 - int(std::floor(std::log10(magnitude))));
    return QString::number(value, 'f', decimals);
}

bool isDevelopmentBuild(const ServerRun &run)
{
    return run.version == QLatin1String("255.255.255");
}

namespace {

// Whether `bundle` (the same bundle of a comparison) holds another source tree named like
// `run`'s tree but of other content: two builds of one dirty commit.
bool treeNameShared(const ResultsBundle *bundle, const ServerRun &run)
{
    if (!bundle || !run.origin.isSourceTree())
        return false;
    const QString name = sourceTreeName(run.origin);
    return std::any_of(bundle->servers.begin(), bundle->servers.end(), [&](const ServerRun &other) {
        return other.origin.isSourceTree() && other.bundleName == run.bundleName
               && other.origin.sourceSha256 != run.origin.sourceSha256 && sourceTreeName(other.origin) == name;
    });
}

// Whether `bundle` holds an upstream build of `run`'s product and version (from the same bundle
// of a comparison).
bool besideUpstreamBuild(const ResultsBundle &bundle, const ServerRun &run)
{
    return std::any_of(bundle.servers.begin(), bundle.servers.end(), [&run](const ServerRun &other) {
        return other.origin.kind == BuildKind::UpstreamBuild && other.product == run.product
               && other.version == run.version && other.bundleName == run.bundleName;
    });
}

// What tells two builds of one version apart: a source tree by its name and revision, an
// upstream release build always; a Debian package only beside an upstream build of its version.
QString buildSuffix(const ServerRun &run, const ResultsBundle *bundle)
{
    if (run.origin.isSourceTree()) {
        const QString content = treeNameShared(bundle, run)
            ? QStringLiteral(", content %1").arg(run.origin.sourceSha256.left(8)) : QString();
        return QStringLiteral(" (tree %1%2)").arg(sourceTreeName(run.origin), content);
    }
    if (run.origin.kind == BuildKind::UpstreamBuild)
        return QStringLiteral(" (upstream build)");
    if (run.origin.kind == BuildKind::DebianPackage && bundle && besideUpstreamBuild(*bundle, run))
        return QStringLiteral(" (Debian package)");
    return QString();
}

QString versionText(const ServerRun &run, const ResultsBundle *bundle)
{
    // In a comparison the bundle's name follows the version: "9.1.2 @ laptop".
    // A cluster's topology follows it: "9.1.2 · cluster ×3"; the self-check series says so:
    // "9.1.2 (self-check)".
    const QString suffix = buildSuffix(run, bundle) + run.topology.shownSuffix()
                           + (run.selfCheck ? QStringLiteral(" (self-check)") : QString())
                           + (run.bundleName.isEmpty() ? QString() : QStringLiteral(" @ ") + run.bundleName);
    if (!isDevelopmentBuild(run))
        return run.version + suffix;
    // A tree's name carries its revision already.
    if (run.origin.isSourceTree())
        return QStringLiteral("dev build") + suffix;
    const bool knownSha = !run.gitSha.isEmpty() && run.gitSha.count(QLatin1Char('0')) != run.gitSha.size();
    if (knownSha)
        return QStringLiteral("dev build ") + run.gitSha.left(8) + suffix;
    QString id = run.id;
    if (!suffix.isEmpty() && id.endsWith(suffix))
        id.chop(suffix.size());
    return QStringLiteral("dev build (%1)").arg(id) + suffix;
}

QString displayName(const ServerRun &run, const ResultsBundle *bundle)
{
    if (run.product.isEmpty() || run.version.isEmpty())
        return run.id;
    QString product = run.product;
    product[0] = product[0].toUpper();
    const QString version = versionText(run, bundle);
    // A server Versus did not launch is told apart from a launched one of the same version.
    if (run.endpoint)
        return QStringLiteral("%1 %2 (%3)").arg(product, version, run.id);
    return product + QLatin1Char(' ') + version;
}

} // namespace

QString sourceTreeName(const BuildOrigin &origin)
{
    // As `git describe --dirty` and cargo name a checkout: where it is, which revision, and
    // whether it has changes of its own. A folder without git is named by its content hash
    // (the one its cache label carries).
    const QString where = !origin.gitBranch.isEmpty() ? origin.gitBranch : QFileInfo(QDir::cleanPath(origin.source)).fileName();
    const QString revision = !origin.gitSha.isEmpty() ? origin.gitSha.left(8) : origin.sourceSha256.left(8);
    QString name = revision.isEmpty() ? where : where + QLatin1Char('@') + revision;
    if (origin.dirty)
        name += QStringLiteral("-dirty");
    return name;
}

QString serverVersionText(const ServerRun &run)
{
    return versionText(run, nullptr);
}

QString serverVersionText(const ResultsBundle &bundle, const ServerRun &run)
{
    return versionText(run, &bundle);
}

QString serverDisplayName(const ServerRun &run)
{
    return displayName(run, nullptr);
}

QString serverDisplayName(const ResultsBundle &bundle, const ServerRun &run)
{
    return displayName(run, &bundle);
}

QString formatPercentChange(double percent)
{
    QString text = QString::number(std::fabs(percent), 'f', 1) + QLatin1Char('%');
    if (text == QLatin1String("0.0%"))
        return text;
    return (percent < 0 ? QString(QChar(0x2212)) : QStringLiteral("+")) + text;
}

QString formatRatio(const std::optional<double> &ratio, const std::optional<double> &plusMinus)
{
    if (!ratio)
        return QStringLiteral("—");
    QString text = QString::number(*ratio, 'f', 2);
    if (plusMinus)
        text += QStringLiteral(" ± ") + QString::number(*plusMinus, 'f', 2);
    return text + QStringLiteral(" ×");
}

QString formatMultiple(double value)
{
    return QString::number(value, 'f', 2) + QStringLiteral("×");
}

QString formatChangeRange(const Spread &ratio, bool interval)
{
    const bool useInterval = interval && ratio.hasInterval();
    const double low = useInterval ? ratio.ciLow : ratio.min;
    const double high = useInterval ? ratio.ciHigh : ratio.max;
    return formatPercentChange((low - 1.0) * 100.0) + QStringLiteral(" to ") + formatPercentChange((high - 1.0) * 100.0);
}

QString skippedCommandsText(const WorkloadInfo &workload)
{
    QStringList parts;
    const QLocale english(QLocale::English);
    for (const auto &[label, count] : workload.skipped) {
        QString part = QStringLiteral("%1 %2").arg(label, english.toString(count));
        if (label == QLatin1String("SELECT"))
            part += QStringLiteral(" (the capture's databases are merged into one: every command goes to database 0)");
        else if (label == QLatin1String("malformed line"))
            part += QStringLiteral(" (--lenient)");
        parts << part;
    }
    return parts.isEmpty() ? QString() : QStringLiteral("Not replayed: %1.").arg(parts.join(QStringLiteral(", ")));
}
