#include "flushconsent.h"

#include "endpointconsent.h"
#include "hostport.h"
#include <QMessageBox>
#include <QPushButton>

std::vector<EndpointSize> queryEndpointSizes(const std::vector<ServerSpec> &endpoints, int timeoutMs)
{
    std::vector<EndpointSize> sizes;
    for (const ServerSpec &spec : endpoints) {
        EndpointSize size;
        size.label = spec.label;
        size.where = hostPortText(spec.host, spec.port);
        const Outcome<EndpointProbe> probe = probeEndpoint(spec, timeoutMs, QObject::tr("the Password field of Add endpoint"));
        if (!probe) {
            size.error = probe.error();
        } else {
            size.probe = probe.value();
            size.holds = keysLost(probe.value());
            size.keys = probe->totalKeys();
            if (size.keys < 0)
                size.error = QStringLiteral("%1: DBSIZE and INFO keyspace were refused").arg(size.where);
        }
        sizes.push_back(size);
    }
    return sizes;
}

namespace {

// A node of a cluster: its first primaries, each with what it loses, then the others counted
// (endpointconsent.h); hidden hosts are numbered instead.
QString clusterConsentItem(const QString &where, const EndpointProbe &probe, bool hideHosts, const QString &kept)
{
    QString nodes;
    int number = 0;
    for (EndpointProbe primary : probe.primaries) {
        if (number == kPrimariesNamed)
            break;
        ++number;
        if (hideHosts)
            primary.where = QObject::tr("%1 of %2").arg(number).arg(probe.primaries.size());
        nodes += QObject::tr("<li>%1</li>").arg(clusterNodeKeysLost(primary).toHtmlEscaped());
    }
    if (const QString unnamed = unnamedPrimariesLost(probe); !unnamed.isEmpty())
        nodes += QObject::tr("<li>%1</li>").arg(unnamed.toHtmlEscaped());
    return QObject::tr("<li><b>%1</b> is a node of a cluster of %2 primaries, and the run uses them all:<ul>%3</ul>%4</li>")
        .arg(where.toHtmlEscaped())
        .arg(probe.primaries.size())
        .arg(nodes, kept);
}

} // namespace

QString flushConsentText(const std::vector<EndpointSize> &sizes, bool hideHosts)
{
    QString details;
    for (const EndpointSize &size : sizes) {
        const QString where = hideHosts ? size.label : size.where;
        // The general sentence says statistics are reset; one that refuses CONFIG keeps them.
        QString kept;
        if (size.probe && refusesConfig(*size.probe)) {
            const QString effects = irreversibleEffects(&*size.probe);
            kept = QObject::tr("<br>Here %1.").arg(effects.toHtmlEscaped());
        }
        if (size.probe && size.keys >= 0 && size.probe->isCluster())
            details += clusterConsentItem(where, *size.probe, hideHosts, kept);
        else if (size.probe && size.keys >= 0)
            details += QObject::tr("<li><b>%1</b> holds %2%3</li>").arg(where.toHtmlEscaped(), size.holds.toHtmlEscaped(), kept);
        else
            details += QObject::tr("<li><b>%1</b>: its keys could not be counted (%2)</li>")
                           .arg(where.toHtmlEscaped(), size.error.toHtmlEscaped());
    }
    return QObject::tr("<p>These servers were not launched by Versus. A run on them cannot be undone: %1.</p><ul>%2</ul>"
                       "<p>Their replicas, and their RDB or AOF file when they persist, lose the keys too. "
                       "latency-tracking, which Versus turns off for the run, is put back at the end, and so is every "
                       "function library the workload loaded or replaced (one another client changes during the run is "
                       "kept), also when the run fails or is cancelled.</p>"
                       "<p>If you do not allow it, they are left untouched and skipped in this run.</p>")
        .arg(irreversibleEffects().toHtmlEscaped(), details);
}

FlushDecision askFlushConsent(QWidget *parent, const std::vector<EndpointSize> &sizes, bool hideHosts)
{
    QMessageBox box(QMessageBox::Warning, QObject::tr("Flush servers Versus did not launch?"),
                    flushConsentText(sizes, hideHosts), QMessageBox::NoButton, parent);
    QPushButton *allow = box.addButton(QObject::tr("Delete their data and run"), QMessageBox::DestructiveRole);
    QPushButton *refuse = box.addButton(QObject::tr("Don't flush them"), QMessageBox::RejectRole);
    QPushButton *cancel = box.addButton(QObject::tr("Cancel run"), QMessageBox::NoRole);
    box.setDefaultButton(refuse);
    // Esc deletes nothing and cancels nothing: in a demo it means "leave full screen", and a
    // presenter pressing it must not end the run the audience is waiting for.
    box.setEscapeButton(refuse);
    box.exec();
    if (box.clickedButton() == allow)
        return FlushDecision::Allow;
    if (box.clickedButton() == cancel)
        return FlushDecision::CancelRun;
    return FlushDecision::Refuse;
}
