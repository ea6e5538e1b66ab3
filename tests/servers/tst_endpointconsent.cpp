// The consent's words for what a flush deletes: an endpoint's databases are named one by one up
// to a few, and the rest counted, so that an endpoint whose INFO keyspace lists 100,000
// databases gives a line, not a 1.6 MB message.

#include "endpointconsent.h"
#include "endpointprobe.h"

#include <QTest>

class TestEndpointConsent : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fewDatabasesAreEachNamed()
    {
        EndpointProbe probe;
        probe.keysKnown = true;
        probe.keysByDatabase = {{0, 1}, {3, 2}};
        QCOMPARE(keysLost(probe), QStringLiteral("db0: 1 key, db3: 2 keys"));
    }

    void manyDatabasesAreCounted()
    {
        EndpointProbe probe;
        probe.keysKnown = true;
        for (int database = 0; database < 100000; ++database)
            probe.keysByDatabase[database] = database == 7 ? 5 : 1;
        QCOMPARE(keysLost(probe), QStringLiteral("db0: 1 key, db1: 1 key, db2: 1 key, db3: 1 key, and 99996 more databases "
                                                 "holding 100000 keys in all"));
        probe.keysByDatabase.erase(probe.keysByDatabase.find(4), probe.keysByDatabase.end());
        probe.keysByDatabase[9] = 3;
        QCOMPARE(keysLost(probe), QStringLiteral("db0: 1 key, db1: 1 key, db2: 1 key, db3: 1 key, and 1 more database "
                                                 "holding 3 keys in all"));
    }
};

QTEST_GUILESS_MAIN(TestEndpointConsent)
#include "tst_endpointconsent.moc"
