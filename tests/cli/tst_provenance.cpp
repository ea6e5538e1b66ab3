// What a bundle says about the servers it measured: the sha256 of the program each server
// process really ran (read through /proc while it ran) and the git sha --version printed. A
// cached server run through its loader records its binary; a server started through a user's
// wrapper script records the real server, not the script, and the log says they differ.

#include "bundlejson.h"
#include "jsonsupport.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QFile>
#include <QtTest>

namespace {

QString wrapperAround(const VersusCli &cli, const ServerSpec &server)
{
    const QString path = cli.path(QStringLiteral("wrapped/valkey-server"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    QString command;
    for (const QString &part : QStringList{server.program} + server.prefixArguments)
        command += QStringLiteral(" '%1'").arg(part);
    QFile script(path);
    if (script.open(QIODevice::WriteOnly)) {
        script.write(QStringLiteral("#!/bin/sh\n%1 \"$@\" &\nwait\n").arg(command).toUtf8());
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return path;
}

} // namespace

class TestProvenance : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bundleRecordsTheRunningExecutable()
    {
        VERSUS_REQUIRE_SERVER(cached, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(other, "valkey-9.1.");
        VersusCli cli;
        const QString wrapper = wrapperAround(cli, other);
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), cached.label + QLatin1Char(',') + wrapper,
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
                                             QStringLiteral("keys=200"), QStringLiteral("--out"), bundlePath});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));

        const ServerRun *direct = bundle->server(cached.label);
        QVERIFY(direct);
        QCOMPARE(direct->executablePath, cached.binaryPath);
        QCOMPARE(direct->executableSha256, cached.binarySha256);
        QCOMPARE(direct->binarySha256, cached.binarySha256);
        QCOMPARE(direct->gitSha, cached.identity.gitSha);
        QCOMPARE(direct->gitSha, QStringLiteral("00000000"));

        // The same version is in the cache, so the script's entry says where it is from.
        const ServerRun *wrapped = bundle->server(other.label + QStringLiteral("-user"));
        QVERIFY2(wrapped, qPrintable(r.describe()));
        QCOMPARE(wrapped->executablePath, other.binaryPath);
        QCOMPARE(wrapped->executableSha256, other.binarySha256);
        QVERIFY(wrapped->binarySha256 != other.binarySha256);   // the script's, as listed
        QVERIFY2(r.err.contains(QStringLiteral("started through a wrapper (pid ")), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("the running server %1 (sha256 %2) is not the binary that was listed")
                                    .arg(other.binaryPath, other.binarySha256.left(16))),
                 r.describe());

        // A user's binary is one to Versus, whatever is behind it; here both allocate alike
        // (Debian's jemalloc, 16 bytes), so the summary has no build caveat.
        QCOMPARE(direct->origin.kind, BuildKind::DebianPackage);
        QCOMPARE(wrapped->origin.kind, BuildKind::UserBinary);
        QCOMPARE(wrapped->allocatorFacts.quantumBytes, 16);
        QVERIFY2(!r.out.contains(QStringLiteral("part of this difference")), r.describe());
    }

    // Where the binary came from and the jemalloc quantum the running server reported, in the
    // bundle's own words.
    void bundleRecordsTheBuildAndQuantum()
    {
        VERSUS_REQUIRE_SERVER(cached, "valkey-8.0.1");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), cached.label,
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
                                             QStringLiteral("keys=2000"), QStringLiteral("--out"), bundlePath});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QFile file(bundlePath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json root = Json::parse(file.readAll().toStdString());
        const Json &server = root.at("servers").at(0);
        QCOMPARE(QString::fromStdString(server.at("id").get<std::string>()), cached.label);
        QCOMPARE(server.at("jemalloc_quantum").get<int>(), 16);
        QVERIFY(!server.contains("jemalloc_quantum_problem"));
        QVERIFY(QString::fromStdString(server.at("mem_allocator").get<std::string>()).startsWith(QStringLiteral("jemalloc")));
        const Json &build = server.at("build");
        QCOMPARE(QString::fromStdString(build.at("origin").get<std::string>()), QStringLiteral("debian-package"));
        QCOMPARE(QString::fromStdString(build.at("suite").get<std::string>()), QStringLiteral("bookworm-backports"));
        QCOMPARE(QString::fromStdString(build.at("package_version").get<std::string>()), cached.origin.packageVersion);
        QVERIFY2(r.err.contains(QStringLiteral("allocator: jemalloc-5.3.0, quantum 16 B")), r.describe());
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
