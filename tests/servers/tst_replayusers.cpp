// Which versus-replay-… users are Versus's, on every server kind Versus supports: the temporary
// user a run creates (ReplayAccess, as a run makes it) is; an owner's versus-replay-prod and a
// user of Versus's name form but other rules are not, and say why.
#include "foreignserver.h"
#include "replayaccess.h"
#include "replayusers.h"
#include "servertesthelpers.h"

#include <QtTest>

class ReplayUsersTest : public QObject {
    Q_OBJECT

private slots:
    void onlyVersussShapeIsVersuss_data()
    {
        QTest::addColumn<QString>("server");
        for (const char *prefix : {"valkey-9.1.", "valkey-8.0.", "redis-7.0.", "redis-8.0."})
            QTest::newRow(prefix) << QString::fromLatin1(prefix);
    }

    void onlyVersussShapeIsVersuss()
    {
        QFETCH(QString, server);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(server);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({server}));
        ForeignServer endpoint(*spec);
        QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
        QCOMPARE(endpoint.command({"ACL", "SETUSER", "versus-replay-prod", "on", ">prod-pw", "~app:*", "+get"}), QStringLiteral("OK"));
        QCOMPARE(endpoint.command({"ACL", "SETUSER", "versus-replay-0123456789ab", "on", ">pw", "~*", "&*", "+@all"}),
                 QStringLiteral("OK"));

        EndpointLogin login;
        login.host = QStringLiteral("127.0.0.1");
        login.port = endpoint.port();
        login.name = endpoint.hostPort();
        Outcome<ReplayAccess> access = ReplayAccess::forEndpoint(login, {});
        QVERIFY2(access, qPrintable(access.error()));
        QCOMPARE(access->mode(), ReplayAccess::Mode::TemporaryUser);
        QCOMPARE(access->leftoverUsers(), QStringList());   // neither of the others is one a killed run left

        RedisConnection owner;
        QVERIFY(endpoint.connect(owner));
        const Outcome<ReplayUsers> users = replayUsersOn(owner);
        QVERIFY2(users, qPrintable(users.error()));
        QCOMPARE(users->versus, QStringList{access->replayCredentials().user});
        QCOMPARE(users->othersLeft(QStringLiteral("here")),
                 (QStringList{QStringLiteral("here: versus-replay-0123456789ab is not one Versus made (its rules differ): left as it is"),
                              QStringLiteral("here: versus-replay-prod is not one Versus made (its name is not of the form Versus "
                                             "gives): left as it is")}));
        QVERIFY(access->release());
    }
};

QTEST_GUILESS_MAIN(ReplayUsersTest)

#include "tst_replayusers.moc"
