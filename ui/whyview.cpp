#include "whyview.h"

#include "figures.h"
#include "memoryexplanation.h"
#include "presentation.h"
#include "whychart.h"
#include "whychartdata.h"
#include "whychartwidget.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

namespace {

QLabel *wrappingLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString sizeClassName(long long bytes)
{
    return QObject::tr("%1 B").arg(QLocale(QLocale::English).toString(bytes));
}

} // namespace

WhyView::WhyView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("why"));
    m_category = new QComboBox;
    m_category->setObjectName(QStringLiteral("whyCategory"));
    m_category->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_category->setToolTip(tr("The memory category whose bytes per key are split into parts"));
    connect(m_category, qOverload<int>(&QComboBox::activated), this, [this] {
        m_chosen = m_category->currentData().toString();
        refresh();
    });
    m_chart = new WhyChartWidget;
    m_sentences = wrappingLabel(QStringLiteral("whySentences"));
    m_unavailable = wrappingLabel(QStringLiteral("whyUnavailable"));
    m_unavailable->setStyleSheet(QStringLiteral("color: #607d8b;"));
    m_allocations = new QTableWidget;
    m_allocations->setObjectName(QStringLiteral("whyAllocations"));
    m_allocations->verticalHeader()->hide();
    m_allocations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_allocations->setSelectionMode(QAbstractItemView::NoSelection);
    m_allocations->setAlternatingRowColors(true);
    m_allocations->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_allocations->setToolTip(tr("Live jemalloc allocations per key by size class (MEMORY MALLOC-STATS), as a change over the pass"));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Explain")));
    top->addWidget(m_category);
    top->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_chart, 3);
    layout->addWidget(m_sentences);
    layout->addWidget(m_unavailable);
    layout->addWidget(m_allocations, 1);
    refresh();
}

void WhyView::setFigures(const Figures &figures)
{
    m_figures = figures;
    scheduleRefresh();
}

void WhyView::setTheme(ColorTheme theme)
{
    m_chart->setTheme(theme);
}

void WhyView::flush()
{
    if (m_pending)
        refresh();
}

// Results come every 100 ms during a run: a view off screen lays them out when it is shown, one on
// screen once per turn of the event loop.
void WhyView::scheduleRefresh()
{
    m_pending = true;
    if (!isVisible() || m_posted)
        return;
    m_posted = true;
    QMetaObject::invokeMethod(this, [this] {
        m_posted = false;
        flush();
    }, Qt::QueuedConnection);
}

void WhyView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    flush();
}

void WhyView::fillCategories(const Figures &figures)
{
    const QSignalBlocker quiet(m_category);
    m_category->clear();
    for (const FigureCategory &category : figures.memory().categories)
        m_category->addItem(category.label, category.id);
    // The user's pick while the results have it; else what the export explains; else the
    // reference type (a hash-ttl run on servers without hsetex explains set-ex alone).
    int index = m_category->findData(m_chosen);
    if (index < 0)
        index = m_category->findData(defaultWhyCategory(figures));
    if (index < 0)
        index = m_category->findData(figures.referenceType());
    m_category->setCurrentIndex(index < 0 ? 0 : index);
    m_category->setEnabled(m_category->count() > 1);
}

void WhyView::refresh()
{
    m_pending = false;
    const Figures &figures = m_figures;
    fillCategories(figures);
    const QString id = categoryId();
    const MemoryExplanation explanation = figures.explainMemory(id.isEmpty() ? QStringLiteral("all") : id);
    const std::optional<MemoryExplanation> reference = referenceExplanation(figures, explanation);
    const WhyChartData data = buildWhyChartData(figures, explanation, reference ? &*reference : nullptr);
    m_chart->setData(data);
    m_title = whyChartTitle(explanation, reference ? &*reference : nullptr);
    m_caveat = figures.buildCaveat();
    QStringList sentences;
    for (const QString &sentence : {explanation.sentence, explanation.allocations, explanation.againstReference})
        if (!sentence.isEmpty())
            sentences << sentence.toHtmlEscaped();
    m_sentences->setText(sentences.join(QStringLiteral("<br><br>")));
    m_sentences->setVisible(!sentences.isEmpty());
    QStringList unavailable;
    for (const MemoryBreakdown &server : explanation.servers)
        for (const QString &reason : server.unavailable)
            unavailable << tr("%1 did not report %2").arg(figures.summary(server.serverId).name, reason);
    m_unavailable->setText(unavailable.join(QLatin1Char('\n')));
    m_unavailable->setVisible(!unavailable.isEmpty());
    fillAllocations(figures, explanation);
    Q_EMIT shownChanged();
}

// Servers down, size classes across: how many live allocations of each class a key holds.
void WhyView::fillAllocations(const Figures &figures, const MemoryExplanation &explanation)
{
    std::vector<const MemoryBreakdown *> servers;
    std::set<long long> classes;
    for (const MemoryBreakdown &server : explanation.servers) {
        if (!server.hasSizeClasses)
            continue;
        servers.push_back(&server);
        for (const SizeClassShare &share : server.sizeClasses)
            classes.insert(share.bytes);
    }
    m_allocations->clear();
    m_allocations->setVisible(!servers.empty());
    QStringList headers{tr("Allocations per key")};
    for (const long long size : classes)
        headers << sizeClassName(size);
    headers << tr("every class");
    m_allocations->setColumnCount(int(headers.size()));
    m_allocations->setHorizontalHeaderLabels(headers);
    m_allocations->setRowCount(int(servers.size()));
    const auto cell = [](const QString &text, Qt::Alignment alignment) {
        auto *item = new QTableWidgetItem(text);
        item->setTextAlignment(alignment | Qt::AlignVCenter);
        return item;
    };
    for (int row = 0; row < int(servers.size()); ++row) {
        const MemoryBreakdown &server = *servers[size_t(row)];
        m_allocations->setItem(row, 0, cell(figures.summary(server.serverId).name, Qt::AlignLeft));
        int column = 1;
        for (const long long size : classes) {
            QString text = QStringLiteral("–");
            for (const SizeClassShare &share : server.sizeClasses)
                if (share.bytes == size)
                    text = formatFigure(share.perKey);
            m_allocations->setItem(row, column++, cell(text, Qt::AlignRight));
        }
        m_allocations->setItem(row, column, cell(formatFigure(server.allocationsPerKey), Qt::AlignRight));
    }
}

QString WhyView::categoryId() const
{
    return m_category->currentData().toString();
}

void WhyView::setCategoryId(const QString &id)
{
    m_chosen = id;
    refresh();
}

QStringList WhyView::categoryLabels() const
{
    QStringList labels;
    for (int i = 0; i < m_category->count(); ++i)
        labels << m_category->itemText(i);
    return labels;
}

QString WhyView::titleText() const
{
    return m_title;
}

QString WhyView::caveatText() const
{
    return m_caveat;
}

QString WhyView::sentencesText() const
{
    return m_sentences->isVisibleTo(this) ? m_sentences->text() : QString();
}

QString WhyView::unavailableText() const
{
    return m_unavailable->isVisibleTo(this) ? m_unavailable->text() : QString();
}

QString WhyView::emptyText() const
{
    return m_chart->chart()->data().emptyText;
}
