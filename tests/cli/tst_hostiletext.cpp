// Text a bundle, a server or an option chose, carried into report.md and onto the terminal by the
// real versus program: a setting's name with backticks and HTML, a version and a type with
// terminal escapes and bidirectional overrides, an ACL user's name, --sni. Before, the setting
// ended its code span and put live <img>/<script> into report.md, and the escapes reached
// report.md and stderr raw (one cleared the screen and forged a line). Each shows as text.

#include "foreignserver.h"
#include "jsonsupport.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QtTest>

namespace {

using TestFiles::readFile;
using TestFiles::writeFile;

// What would act on a terminal: ESC, a C1 CSI, a BEL, the right-to-left override.
const QString kEscapes = QStringLiteral("\x1b[2J\x1b[H\u009b\x07\u202E");
// The same as terminalText shows it.
const QString kEscapesShown = QStringLiteral("\\x1b[2J\\x1b[H\\x9b\\x07\\u202e");
const QString kSetting = QStringLiteral("x`<img src=x onerror=alert(1)>`<script>alert(2)</script>");

// Whether `text` holds any character a terminal would act on.
bool actsOnATerminal(const QString &text)
{
    for (const QChar c : text) {
        if ((c < QChar(0x20) && c != QLatin1Char('\n') && c != QLatin1Char('\t')) || (c >= QChar(0x7f) && c < QChar(0xa0))
            || (c >= QChar(0x202a) && c <= QChar(0x202e)) || (c >= QChar(0x2066) && c <= QChar(0x2069)))
            return true;
    }
    return false;
}

// Renames the key `from` to `to` in every object of `json` that has it.
void renameKey(Json &json, const std::string &from, const std::string &to)
{
    if (json.is_object() && json.contains(from)) {
        json[to] = json[from];
        json.erase(from);
    }
    if (json.is_structured()) {
        for (Json &child : json)
            renameKey(child, from, to);
    }
}

// real-ecommerce.json with a setting only Valkey 9.1.2 has, named to break out of a code span,
// and escapes in that server's version and in the type `counter`.
QString hostileBundle(VersusCli &cli)
{
    Outcome<Json> root = parseJson(readFile(QStringLiteral(VERSUS_FIXTURES "/bundles/real-ecommerce.json")),
                                   QStringLiteral("real-ecommerce.json"));
    if (!root)
        return {};
    Json &bundle = root.value();
    bundle["servers"][0]["config"] = Json{{"maxmemory", "0"}};
    bundle["servers"][1]["config"] = Json{{"maxmemory", "0"}, {kSetting.toStdString(), "1"}};
    bundle["servers"][1]["version"] = (QStringLiteral("9.1.2") + kEscapes).toStdString();
    const std::string counter = (QStringLiteral("counter") + kEscapes).toStdString();
    for (Json &type : bundle["workload"]["types"]) {
        if (type == "counter")
            type = counter;
    }
    renameKey(bundle["runs"], "counter", counter);
    const QString path = cli.path(QStringLiteral("hostile.json"));
    return writeFile(path, QByteArray::fromStdString(bundle.dump())) ? path : QString();
}

} // namespace

class HostileTextTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void reportShowsABundlesTextAsText()
    {
        VersusCli cli;
        const QString bundle = hostileBundle(cli);
        QVERIFY(!bundle.isEmpty());
        const QString folder = cli.path(QStringLiteral("out"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"), folder,
                                             QStringLiteral("--format"), QStringLiteral("svg"), QStringLiteral("--report")},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const QString report = QString::fromUtf8(readFile(folder + QStringLiteral("/report.md")));
        // The backtick inside ends no span: the span is fenced by two, and the HTML in it is text.
        QVERIFY2(report.contains(QStringLiteral("\nSettings only some of these versions have (1): ``%1``.\n").arg(kSetting)),
                 qPrintable(report.right(3000)));
        QCOMPARE(report.count(QLatin1String("<img")), 1);
        QCOMPARE(report.count(QLatin1String("<script")), 1);
        QVERIFY2(!actsOnATerminal(report), qPrintable(report.left(3000)));
        // The version and the type as Markdown text: each escape's backslash escaped, [ too.
        const QString markdownEscapes = QStringLiteral("\\\\x1b\\[2J\\\\x1b\\[H\\\\x9b\\\\x07\\\\u202e");
        QVERIFY2(report.contains(QStringLiteral("| Valkey 9.1.2%1 |").arg(markdownEscapes)), qPrintable(report.left(3000)));
        QVERIFY2(report.contains(QStringLiteral("\n| counter%1 |").arg(markdownEscapes)), qPrintable(report.left(3000)));
    }

    // The type's name reaches stderr in the list of the charts' categories.
    void stderrShowsABundlesTextAsText()
    {
        VersusCli cli;
        const QString bundle = hostileBundle(cli);
        QVERIFY(!bundle.isEmpty());
        const VersusCli::Result r = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"),
                                             cli.path(QStringLiteral("out")), QStringLiteral("--categories"),
                                             QStringLiteral("nosuch")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(!actsOnATerminal(r.err), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral(", counter%1,").arg(kEscapesShown)), qPrintable(r.err));
    }

    // A file or folder the user names is echoed as text: the events file of `versus generate`
    // and every chart path `versus export` prints.
    void pathsStayText()
    {
        VersusCli cli;
        const QString events = cli.path(QStringLiteral("events") + kEscapes + QStringLiteral(".jsonl"));
        const VersusCli::Result generated =
            cli.run({QStringLiteral("generate"), QStringLiteral("--events"), QStringLiteral("5"), QStringLiteral("--out"), events}, 60000);
        QVERIFY2(generated.finished && generated.exitCode == 0, generated.describe());
        QVERIFY2(!actsOnATerminal(generated.err), qPrintable(generated.err));
        QVERIFY2(generated.err.contains(QStringLiteral("events%1.jsonl").arg(kEscapesShown)), qPrintable(generated.err));

        const QString bundle = hostileBundle(cli);
        QVERIFY(!bundle.isEmpty());
        const VersusCli::Result exported = cli.run({QStringLiteral("export"), bundle, QStringLiteral("--export-dir"),
                                                    cli.path(QStringLiteral("charts") + kEscapes)},
                                                   60000);
        QVERIFY2(exported.finished && exported.exitCode == 0, exported.describe());
        QVERIFY2(!actsOnATerminal(exported.out), qPrintable(exported.out));
        QVERIFY2(exported.out.contains(QStringLiteral("charts%1/memory-per-attribute.png").arg(kEscapesShown)),
                 qPrintable(exported.out));
    }

    // An owner's ACL user whose name clears the screen, homes the cursor and reverses the text
    // after it (a name can hold no space or line break): `versus servers --endpoint` names it as
    // text, on its own line.
    void aclUserNameStaysText()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.start(), qPrintable(server.error()));
        const QString user = QStringLiteral("versus-replay-") + kEscapes;
        QCOMPARE(server.command({"ACL", "SETUSER", user.toStdString(), "on", ">pw", "+get"}), QStringLiteral("OK"));
        VersusCli cli;
        cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
        const VersusCli::Result r = cli.run({QStringLiteral("servers"), QStringLiteral("--endpoint"), server.hostPort()}, 30000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(r.out, QStringLiteral("%1: nothing left by Versus\n%1: versus-replay-%2 is not one Versus made (its name is not "
                                       "of the form Versus gives): left as it is\n")
                            .arg(server.hostPort(), kEscapesShown));
    }

    // --sni reaches stderr in the certificate's refusal.
    void sniStaysText()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec);
        QVERIFY2(server.useOwnTls(), qPrintable(server.error()));
        QVERIFY2(server.start(), qPrintable(server.error()));
        VersusCli cli;
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), server.hostPort(),
                                             QStringLiteral("--tls"), QStringLiteral("--cacert"), server.tls().caCertFile,
                                             QStringLiteral("--sni"), QStringLiteral("host") + kEscapes,
                                             QStringLiteral("--allow-flush"), QStringLiteral("--workload"),
                                             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode != 0, r.describe());
        QVERIFY2(!actsOnATerminal(r.err) && !actsOnATerminal(r.out), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("host%1").arg(kEscapesShown)), r.describe());
        QVERIFY(cli.leftoverServers().empty());
    }
};

QTEST_GUILESS_MAIN(HostileTextTest)
#include "tst_hostiletext.moc"
