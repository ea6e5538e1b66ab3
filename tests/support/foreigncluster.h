#pragma once
// A cluster the test forms itself, not through Versus: N ForeignServers started with only
// --cluster-enabled yes and a bus port (each its own folder, so its own nodes.conf), slots assigned in even
// ranges with CLUSTER ADDSLOTSRANGE and the nodes joined with CLUSTER MEET, as a user's own
// cluster would be. It can move slots between its primaries while a run goes on, with keys,
// the way an operator resharding it does (CLUSTER SETSLOT IMPORTING / MIGRATING, MIGRATE,
// SETSLOT NODE).
//
//   ForeignCluster cluster(spec, 3);
//   QVERIFY2(cluster.start(), qPrintable(cluster.error()));
//   ... versus run --servers cluster.node(0).hostPort() --allow-flush ...

#include "clusterslots.h"
#include "foreignserver.h"

#include <QElapsedTimer>
#include <QThread>
#include <memory>
#include <vector>

class ForeignCluster {
public:
    ForeignCluster(ServerSpec spec, int primaries) : m_spec(std::move(spec)), m_primaries(primaries) {}
    // TLS-only nodes (ForeignServer::useTls), the bus too, certificates of one authority. Before start().
    void useTls(std::shared_ptr<const TlsAuthority> authority) { m_authority = std::move(authority); }
    // Arguments every node starts with besides the cluster's own (a managed service's
    // restrictions: --rename-command CONFIG ""). Before start().
    void setNodeArguments(QStringList arguments) { m_nodeArguments = std::move(arguments); }

    bool start()
    {
        for (int index = 0; index < m_primaries; ++index) {
            // The bus port is given: the default, the port + 10000, may lie past 65535.
            m_busPorts.push_back(ForeignServer::freePort());
            m_nodes.push_back(std::make_unique<ForeignServer>(
                m_spec, QStringList{QStringLiteral("--cluster-enabled"), QStringLiteral("yes"), QStringLiteral("--cluster-port"),
                                    QString::number(m_busPorts.back())}
                            + m_nodeArguments));
            if (m_authority && !m_nodes.back()->useTls(*m_authority, QStringLiteral("no"), true))
                return fail(QStringLiteral("node %1: %2").arg(index + 1).arg(m_nodes.back()->error()));
            if (!m_nodes.back()->start())
                return fail(QStringLiteral("node %1: %2").arg(index + 1).arg(m_nodes.back()->error()));
        }
        for (int index = 0; index < m_primaries; ++index) {
            const QString added = node(index).command({"CLUSTER", "ADDSLOTSRANGE", std::to_string(firstSlot(index)),
                                                       std::to_string(firstSlot(index + 1) - 1)});
            if (added != QLatin1String("OK"))
                return fail(QStringLiteral("node %1: CLUSTER ADDSLOTSRANGE: %2").arg(index + 1).arg(added));
            if (index > 0) {
                const QString met = node(0).command(
                    {"CLUSTER", "MEET", "127.0.0.1", std::to_string(node(index).port()), std::to_string(m_busPorts[size_t(index)])});
                if (met != QLatin1String("OK"))
                    return fail(QStringLiteral("CLUSTER MEET: %1").arg(met));
            }
        }
        return waitUntilEveryNodeAgrees();
    }

    int size() const { return int(m_nodes.size()); }
    const ForeignServer &node(int index) const { return *m_nodes[size_t(index)]; }
    QString error() const { return m_error; }
    // The first slot node `index` was given (index == size(): 16384).
    int firstSlot(int index) const { return int(static_cast<long long>(index) * kClusterSlots / m_primaries); }

    // The node serving `slot` now, as node 0's CLUSTER SLOTS says; -1 when none does.
    int nodeOfSlot(int slot) const
    {
        RedisConnection connection;
        if (!node(0).connect(connection))
            return -1;
        Outcome<Reply> reply = connection.command({"CLUSTER", "SLOTS"});
        if (!reply)
            return -1;
        for (const Reply &range : reply->elements) {
            if (range.elements.size() >= 3 && slot >= range.elements[0].integer && slot <= range.elements[1].integer)
                return indexOfPort(int(range.elements[2].elements[1].integer));
        }
        return -1;
    }

    // Moves slots [first, last] with their keys from node `from` to node `to`, one slot after
    // the other, as an operator resharding the cluster does. Each slot is migrating for as long
    // as its keys take to move: commands for keys already moved get ASK meanwhile, and MOVED
    // once the slot has its new owner.
    bool moveSlots(int first, int last, int from, int to)
    {
        const std::string source = node(from).command({"CLUSTER", "MYID"}).toStdString();
        const std::string target = node(to).command({"CLUSTER", "MYID"}).toStdString();
        RedisConnection sourceConnection;
        if (!node(from).connect(sourceConnection))
            return fail(QStringLiteral("cannot connect to node %1").arg(from + 1));
        for (int slot = first; slot <= last; ++slot) {
            const std::string number = std::to_string(slot);
            if (!ok(node(to).command({"CLUSTER", "SETSLOT", number, "IMPORTING", source}), "SETSLOT IMPORTING")
                || !ok(node(from).command({"CLUSTER", "SETSLOT", number, "MIGRATING", target}), "SETSLOT MIGRATING"))
                return false;
            for (;;) {
                Outcome<Reply> keys = sourceConnection.command({"CLUSTER", "GETKEYSINSLOT", number, "100"});
                if (!keys || keys->elements.empty())
                    break;
                std::vector<std::string> migrate{"MIGRATE", "127.0.0.1", std::to_string(node(to).port()), "", "0", "5000", "KEYS"};
                for (const Reply &key : keys->elements)
                    migrate.push_back(key.text);
                Outcome<Reply> moved = sourceConnection.command(migrate);
                if (!moved || moved->isError())
                    return fail(QStringLiteral("MIGRATE of slot %1: %2").arg(slot).arg(moved ? QString::fromStdString(moved->text) : moved.error()));
            }
            // The new owner first, then the old, then the rest, as the cluster specification
            // orders it: told the other way round, the old owner answers MOVED to the new one
            // while the new one, still importing, answers MOVED back, and a client is sent to
            // and fro for as long as the gap between the two lasts.
            std::vector<int> order{to, from};
            for (int index = 0; index < size(); ++index) {
                if (index != to && index != from)
                    order.push_back(index);
            }
            for (const int index : order) {
                if (!ok(node(index).command({"CLUSTER", "SETSLOT", number, "NODE", target}), "SETSLOT NODE"))
                    return false;
            }
        }
        return true;
    }

private:
    bool fail(const QString &error)
    {
        m_error = error;
        return false;
    }

    bool ok(const QString &reply, const char *what)
    {
        return reply == QLatin1String("OK") || fail(QStringLiteral("CLUSTER %1: %2").arg(QLatin1String(what), reply));
    }

    int indexOfPort(int port) const
    {
        for (int index = 0; index < size(); ++index)
            if (node(index).port() == port)
                return index;
        return -1;
    }

    bool waitUntilEveryNodeAgrees()
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            bool formed = true;
            for (int index = 0; index < size() && formed; ++index) {
                const QString info = node(index).command({"CLUSTER", "INFO"});
                formed = info.contains(QLatin1String("cluster_state:ok"))
                    && info.contains(QStringLiteral("cluster_known_nodes:%1\r\n").arg(size()));
            }
            if (formed)
                return true;
            QThread::msleep(50);
        }
        return fail(QStringLiteral("the cluster did not form in 30 s: %1").arg(node(0).command({"CLUSTER", "INFO"})));
    }

    ServerSpec m_spec;
    int m_primaries;
    std::vector<std::unique_ptr<ForeignServer>> m_nodes;
    QStringList m_nodeArguments;
    std::shared_ptr<const TlsAuthority> m_authority;
    std::vector<int> m_busPorts;
    QString m_error;
};
