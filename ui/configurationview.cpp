#include "configurationview.h"

#include "figures.h"
#include <QHeaderView>
#include <map>

ConfigurationView::ConfigurationView(QWidget *parent) : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("configuration"));
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setRootIsDecorated(true);
}

QTreeWidgetItem *ConfigurationView::section(const QString &title, const QString &tooltip)
{
    auto *item = new QTreeWidgetItem(this);
    item->setText(0, title);
    item->setToolTip(0, tooltip);
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

void ConfigurationView::addApplied(const Figures &figures, const QStringList &ids)
{
    // One row per setting, its outcome on each server in that server's column.
    QTreeWidgetItem *applied = nullptr;
    std::map<QString, QTreeWidgetItem *> rows;
    auto cell = [&](const QString &name, int column, const QString &text, const QString &tooltip) {
        if (!applied)
            applied = section(tr("Server settings of this run"),
                              tr("What the run's server settings (--server-config) set on each server"));
        QTreeWidgetItem *&row = rows[name];
        if (!row) {
            row = new QTreeWidgetItem(applied);
            row->setText(0, name);
        }
        row->setText(column + 1, text);
        row->setToolTip(column + 1, tooltip);
    };
    for (int column = 0; column < ids.size(); ++column) {
        const ServerRun &run = *figures.bundle().server(ids[column]);
        for (const auto &[name, value] : run.configApplied)
            cell(name, column, value, tr("applied"));
        for (const auto &[name, why] : run.configRefused)
            cell(name, column, tr("not applied"), why);
    }
}

void ConfigurationView::setFigures(const Figures &figures)
{
    // A live run hands over its figures ten times a second; the settings change only when a
    // server starts, so the table is rebuilt only then.
    const ResultsBundle &bundle = figures.bundle();
    QStringList signature;
    for (const ServerRun &run : bundle.servers)
        signature << QStringLiteral("%1:%2:%3:%4").arg(run.id).arg(run.config.size()).arg(run.configApplied.size())
                         .arg(run.configRefused.size());
    signature << figures.baselineId() << figures.serverIds().join(QLatin1Char(','));
    if (signature == m_signature && topLevelItemCount() > 0)
        return;
    m_signature = signature;
    clear();
    const QStringList ids = figures.configServerIds();
    QStringList headers{tr("Setting")};
    for (const QString &id : ids)
        headers << figures.summary(id).name;
    setHeaderLabels(headers);
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (ids.size() < 2) {
        section(tr("The configuration is compared once two servers with recorded settings ran."), QString());
        return;
    }
    QTreeWidgetItem *bearing = nullptr;
    QTreeWidgetItem *other = nullptr;
    QTreeWidgetItem *onlySome = nullptr;
    for (const ConfigDifference &difference : figures.configDifferences()) {
        QTreeWidgetItem *&parent = difference.bearsOnFigures ? bearing : difference.everywhere ? other : onlySome;
        if (!parent)
            parent = difference.bearsOnFigures
                ? section(tr("Differ, and bear on memory or server time"),
                          tr("Encoding thresholds, lazyfree, io-threads, hz, active expire, defrag, maxmemory"))
                : difference.everywhere ? section(tr("Differ"), QString())
                                        : section(tr("Only some versions have"), tr("— : not a setting of that version"));
        auto *row = new QTreeWidgetItem(parent);
        row->setText(0, difference.name);
        for (int column = 0; column < ids.size(); ++column) {
            const auto value = difference.values.find(ids[column]);
            row->setText(column + 1, value == difference.values.end() ? QStringLiteral("—")
                                     : value->second.isEmpty()        ? tr("(empty)")
                                                                      : value->second);
        }
    }
    if (!bearing && !other && !onlySome)
        section(tr("Every setting is the same on these servers."), QString());
    if (onlySome)
        onlySome->setExpanded(false);
    addApplied(figures, ids);
}
