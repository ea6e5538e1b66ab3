#include "encodingsview.h"

#include "palette.h"
#include "presentation.h"
#include <QHeaderView>
#include <QLocale>
#include <set>

EncodingsView::EncodingsView(QWidget *parent) : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("encodings"));
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    header()->setDefaultAlignment(Qt::AlignCenter);
}

void EncodingsView::setBundle(const ResultsBundle &bundle)
{
    // Remember which types the user opened, so live updates do not fold them again.
    std::set<QString> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->isExpanded())
            expanded.insert(topLevelItem(i)->text(0));
    const bool firstFill = topLevelItemCount() == 0;

    clear();
    const QStringList ids = orderedServerIds(bundle);
    QStringList headers{tr("Type / encoding")};
    for (const QString &id : ids)
        headers << serverDisplayName(*bundle.server(id));
    setHeaderLabels(headers);
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    header()->setStretchLastSection(false);

    // The types in workload order, then any a server reported beyond them.
    QStringList types = bundle.workload.types;
    for (const ServerRun &run : bundle.servers)
        for (const RepeatResult &repeat : run.repeats)
            for (const auto &entry : repeat.byType)
                if (!types.contains(entry.first))
                    types << entry.first;

    const QLocale locale(QLocale::English);
    auto lastRepeat = [](const ServerRun *run) -> const RepeatResult * {
        for (auto it = run->repeats.rbegin(); it != run->repeats.rend(); ++it)
            if (!it->byType.empty())
                return &*it;
        return nullptr;
    };
    for (const QString &type : types) {
        auto *typeItem = new QTreeWidgetItem(this);
        typeItem->setText(0, type);
        QFont bold = typeItem->font(0);
        bold.setBold(true);
        typeItem->setFont(0, bold);
        std::set<QString> encodings;
        for (int column = 0; column < ids.size(); ++column) {
            const RepeatResult *repeat = lastRepeat(bundle.server(ids[column]));
            auto it = repeat ? repeat->byType.find(type) : std::map<QString, TypeMemory>::const_iterator();
            if (!repeat || it == repeat->byType.end())
                continue;
            const TypeMemory &memory = it->second;
            if (memory.status != QLatin1String("ok")) {
                typeItem->setText(column + 1, tr("unsupported"));
                typeItem->setToolTip(column + 1, memory.error);
                typeItem->setForeground(column + 1, QColor(0xc6, 0x28, 0x28));
                continue;
            }
            typeItem->setTextAlignment(column + 1, Qt::AlignRight | Qt::AlignVCenter);
            typeItem->setText(column + 1, tr("%1 keys · %2 B/key").arg(locale.toString(memory.keys), formatFigure(memory.bytesPerKey)));
            if (memory.memoryUsageBytesPerKey > 0)
                typeItem->setToolTip(column + 1, tr("MEMORY USAGE says %1 B/key (second opinion only)")
                                                     .arg(formatFigure(memory.memoryUsageBytesPerKey)));
            for (const auto &encoding : memory.encodings)
                encodings.insert(encoding.first);
        }
        for (const QString &encoding : encodings) {
            auto *encodingItem = new QTreeWidgetItem(typeItem);
            encodingItem->setText(0, encoding);
            for (int column = 0; column < ids.size(); ++column) {
                const RepeatResult *repeat = lastRepeat(bundle.server(ids[column]));
                if (!repeat)
                    continue;
                auto it = repeat->byType.find(type);
                if (it == repeat->byType.end())
                    continue;
                auto count = it->second.encodings.find(encoding);
                encodingItem->setText(column + 1, count == it->second.encodings.end() ? QStringLiteral("–")
                                                                                      : locale.toString(count->second));
                encodingItem->setTextAlignment(column + 1, Qt::AlignRight | Qt::AlignVCenter);
            }
        }
        typeItem->setExpanded(firstFill || expanded.count(type) > 0);
    }
}
