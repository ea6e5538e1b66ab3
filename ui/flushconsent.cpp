#include "flushconsent.h"

#include "endpointprobe.h"
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

std::vector<EndpointSize> queryEndpointSizes(const std::vector<ServerSpec> &endpoints, int timeoutMs)
{
    std::vector<EndpointSize> sizes;
    for (const ServerSpec &spec : endpoints) {
        EndpointSize size;
        size.label = spec.label;
        size.where = QStringLiteral("%1:%2").arg(spec.host).arg(spec.port);
        const Outcome<EndpointProbe> probe = probeEndpoint(spec, timeoutMs);
        if (!probe)
            size.error = probe.error();
        else if (probe->keys < 0)
            size.error = QStringLiteral("%1: DBSIZE was refused").arg(size.where);
        else
            size.keys = probe->keys;
        sizes.push_back(size);
    }
    return sizes;
}

FlushDecision askFlushConsent(QWidget *parent, const std::vector<EndpointSize> &sizes, bool hideHosts)
{
    const QLocale locale(QLocale::English);
    QString details;
    for (const EndpointSize &size : sizes) {
        const QString where = hideHosts ? size.label : size.where;
        if (size.keys >= 0)
            details += QObject::tr("<li><b>%1</b>: %2 keys would be deleted</li>")
                           .arg(where.toHtmlEscaped(), locale.toString(size.keys));
        else
            details += QObject::tr("<li><b>%1</b>: could not read DBSIZE (%2)</li>")
                           .arg(where.toHtmlEscaped(), size.error.toHtmlEscaped());
    }
    QMessageBox box(QMessageBox::Warning, QObject::tr("Flush servers Versus did not launch?"),
                    QObject::tr("<p>Versus flushes every server before measuring it. These servers were not "
                                "launched by Versus, so flushing them <b>deletes their data</b>:</p><ul>%1</ul>"
                                "<p>If you do not allow it, they are left untouched and skipped in this run.</p>")
                        .arg(details),
                    QMessageBox::NoButton, parent);
    QPushButton *allow = box.addButton(QObject::tr("Delete their data and run"), QMessageBox::DestructiveRole);
    QPushButton *refuse = box.addButton(QObject::tr("Don't flush them"), QMessageBox::RejectRole);
    QPushButton *cancel = box.addButton(QObject::tr("Cancel run"), QMessageBox::NoRole);
    box.setDefaultButton(refuse);
    box.setEscapeButton(cancel);
    box.exec();
    if (box.clickedButton() == allow)
        return FlushDecision::Allow;
    if (box.clickedButton() == cancel)
        return FlushDecision::CancelRun;
    return FlushDecision::Refuse;
}
