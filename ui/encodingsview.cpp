#include "encodingsview.h"

#include "figures.h"
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

void EncodingsView::addType(const Figures &figures, const FigureTable &memory, const QString &type, bool expand)
{
    const QStringList ids = figures.serverIds();
    const QLocale locale(QLocale::English);
    const int category = memory.categoryIndex(type);
    auto *typeItem = new QTreeWidgetItem(this);
    typeItem->setText(0, type);
    QFont bold = typeItem->font(0);
    bold.setBold(true);
    typeItem->setFont(0, bold);
    std::set<QString> encodings;
    std::vector<std::optional<TypeEncodings>> columns;
    for (int column = 0; column < ids.size(); ++column) {
        columns.push_back(figures.encodings(type, ids[column]));
        const Figure &figure = memory.at(category, ids[column]);
        if (figure.state == FigureState::Unsupported) {
            typeItem->setText(column + 1, tr("unsupported"));
            typeItem->setToolTip(column + 1, figure.note);
            typeItem->setForeground(column + 1, QColor(0xc6, 0x28, 0x28));
            continue;
        }
        const std::optional<TypeEncodings> &found = columns.back();
        if (!found || !figure.hasValue())
            continue;
        typeItem->setTextAlignment(column + 1, Qt::AlignRight | Qt::AlignVCenter);
        typeItem->setText(column + 1, tr("%1 keys · %2 B/key").arg(locale.toString(found->keys), formatFigure(figure.value)));
        if (found->memoryUsageBytesPerKey.hasValue())
            typeItem->setToolTip(column + 1, tr("MEMORY USAGE says %1 B/key (second opinion only)")
                                                 .arg(formatFigure(found->memoryUsageBytesPerKey.value)));
        for (const auto &encoding : found->encodings)
            encodings.insert(encoding.first);
    }
    for (const QString &encoding : encodings) {
        auto *encodingItem = new QTreeWidgetItem(typeItem);
        encodingItem->setText(0, encoding);
        for (int column = 0; column < ids.size(); ++column) {
            if (!columns[size_t(column)])
                continue;
            const auto &counts = columns[size_t(column)]->encodings;
            const auto count = counts.find(encoding);
            encodingItem->setText(column + 1, count == counts.end() ? QStringLiteral("–") : locale.toString(count->second));
            encodingItem->setTextAlignment(column + 1, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    typeItem->setExpanded(expand);
}

void EncodingsView::setFigures(const Figures &figures)
{
    // Remember which types the user opened, so live updates do not fold them again.
    std::set<QString> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->isExpanded())
            expanded.insert(topLevelItem(i)->text(0));
    const bool firstFill = topLevelItemCount() == 0;

    clear();
    QStringList headers{tr("Type / encoding")};
    for (const QString &id : figures.serverIds())
        headers << figures.summary(id).name;
    setHeaderLabels(headers);
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    header()->setStretchLastSection(false);
    const FigureTable memory = figures.memory();
    for (const QString &type : figures.types())
        addType(figures, memory, type, firstFill || expanded.count(type) > 0);
}
