#include "progresslist.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QVBoxLayout>

namespace {

QString durationText(double seconds)
{
    if (seconds < 0)
        return QString();
    const int whole = int(seconds + 0.5);
    if (whole < 60)
        return QStringLiteral("%1 s").arg(whole);
    return QStringLiteral("%1:%2").arg(whole / 60).arg(whole % 60, 2, 10, QLatin1Char('0'));
}

QString barStyle(const QString &chunkColour, bool full = false)
{
    // A full bar carries its text on the colour: white reads there, black does not.
    return QStringLiteral("QProgressBar { border: 1px solid #b0bec5; border-radius: 3px; background: palette(base);"
                          " text-align: center; color: %2; }"
                          "QProgressBar::chunk { background: %1; border-radius: 2px; }")
        .arg(chunkColour, full ? QStringLiteral("white") : QStringLiteral("#263238"));
}

} // namespace

ProgressList::ProgressList(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    // A sweep names the point being run above the rows.
    m_point = new QLabel;
    m_point->setObjectName(QStringLiteral("sweepPoint"));
    m_point->hide();
    layout->addWidget(m_point);
    m_grid = new QGridLayout;
    layout->addLayout(m_grid);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(12);
    m_grid->setVerticalSpacing(4);
    // At least 110 px, but never less than the name: a minimum width on the label itself replaced
    // its text's width, and large text showed "Valkey 9.1.2" as "Valkey 9.1.:".
    m_grid->setColumnMinimumWidth(0, 110);
    m_grid->setColumnStretch(1, 3);
    m_grid->setColumnStretch(3, 2);
}

void ProgressList::setSweepPoint(const QString &label)
{
    m_point->setText(tr("Sweep: %1").arg(label));
    m_point->setVisible(!label.isEmpty());
}

QString ProgressList::sweepPoint() const
{
    return m_point->isVisible() ? m_point->text() : QString();
}

void ProgressList::setServers(const QStringList &ids, const QStringList &names)
{
    m_point->hide();
    for (auto &entry : m_rows) {
        delete entry.second.name;
        delete entry.second.bar;
        delete entry.second.rate;
        delete entry.second.message;
    }
    m_rows.clear();
    for (int i = 0; i < ids.size(); ++i) {
        Row row;
        row.name = new QLabel(i < names.size() ? names[i] : ids[i]);
        QFont bold = row.name->font();
        bold.setBold(true);
        row.name->setFont(bold);
        row.bar = new QProgressBar;
        row.bar->setRange(0, 1000);
        row.bar->setValue(0);
        row.bar->setFormat(QStringLiteral("waiting"));
        row.bar->setFixedHeight(row.name->sizeHint().height() + 2);
        row.bar->setStyleSheet(barStyle(QStringLiteral("#64b5f6")));
        row.rate = new QLabel;
        row.rate->setMinimumWidth(150);
        row.rate->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        row.rate->setStyleSheet(QStringLiteral("color: palette(mid);"));
        row.message = new QLabel;
        row.message->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // A server's error can be a long line (an endpoint's transport error, with its address):
        // it wraps in the room the row has, and never makes the window wider than the screen.
        row.message->setWordWrap(true);
        row.message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        m_grid->addWidget(row.name, i, 0);
        m_grid->addWidget(row.bar, i, 1);
        m_grid->addWidget(row.rate, i, 2);
        m_grid->addWidget(row.message, i, 3);
        m_rows[ids[i]] = row;
    }
}

void ProgressList::showProgress(const ServerProgress &progress)
{
    auto it = m_rows.find(progress.serverId);
    if (it == m_rows.end())
        return;
    Row &row = it->second;
    row.state = progress.state;
    const bool done = progress.state == ProgressState::Done;
    const bool failed = progress.state == ProgressState::Failed;
    const int permille = done ? 1000 : int(progress.fraction() * 1000.0);
    row.bar->setValue(permille);
    QString phase = progress.phase.isEmpty() ? progressStateName(progress.state) : progress.phase;
    if (done)
        phase = tr("done");
    else if (failed)
        phase = tr("failed");
    row.bar->setFormat(QStringLiteral("%1  %2%").arg(phase).arg(permille / 10));
    const QString colour = failed ? QStringLiteral("#c62828") : done ? QStringLiteral("#2e7d32") : QStringLiteral("#64b5f6");
    row.bar->setStyleSheet(barStyle(colour, done || (failed && permille > 500)));
    const QLocale locale(QLocale::English);
    QString rate;
    if (progress.eventsPerSecond > 0 && !done && !failed)
        rate = tr("%1 events/s").arg(locale.toString(progress.eventsPerSecond, 'f', 0));
    const QString eta = durationText(progress.etaSeconds);
    if (!eta.isEmpty() && !done && !failed)
        rate += (rate.isEmpty() ? QString() : QStringLiteral(" · ")) + tr("ETA %1").arg(eta);
    if (done)
        rate = doneText(progress);
    row.rate->setText(rate);
    // Notes accumulate over the run ("hsetex unsupported · hset-hexpire unsupported"): the
    // worker reports only its latest one.
    if (!progress.message.isEmpty() && !row.notes.contains(progress.message) && !failed)
        row.notes << progress.message;
    // Why a server failed is said once, under the chart, where the figures it lacks are: the row
    // says where, and has the whole message on hover (the Logs tab too).
    row.message->setText(failed ? tr("the reason is under the chart") : row.notes.join(QStringLiteral(" · ")));
    row.message->setToolTip((failed ? QStringList(row.notes) << progress.message : row.notes).join(QLatin1Char('\n')));
    row.message->setStyleSheet(failed || row.message->text().contains(QLatin1String("unsupported"))
                                   ? QStringLiteral("color: #c62828;")
                                   : QStringLiteral("color: palette(mid);"));
}

QString ProgressList::doneText(const ServerProgress &progress)
{
    // "20,000 events × 12 passes": the workload's own count, as the workload panel says it,
    // not the 240,000 replayed over every pass.
    const QLocale locale(QLocale::English);
    if (progress.workloadEvents <= 0 || progress.eventsDone <= progress.workloadEvents)
        return tr("%1 events").arg(locale.toString(progress.eventsDone));
    const long long passes = progress.eventsDone / progress.workloadEvents;
    return tr("%1 events × %2 passes").arg(locale.toString(progress.workloadEvents)).arg(passes);
}

void ProgressList::markCancelled()
{
    for (auto &entry : m_rows) {
        Row &row = entry.second;
        if (row.state == ProgressState::Done || row.state == ProgressState::Failed)
            continue;
        row.state = ProgressState::Cancelled;
        row.bar->setFormat(tr("cancelled  %p%"));
        row.bar->setStyleSheet(barStyle(QStringLiteral("#9e9e9e")));
        row.rate->clear();
    }
}

int ProgressList::percent(const QString &id) const
{
    auto it = m_rows.find(id);
    return it == m_rows.end() ? -1 : it->second.bar->value() / 10;
}

ProgressState ProgressList::state(const QString &id) const
{
    auto it = m_rows.find(id);
    return it == m_rows.end() ? ProgressState::Starting : it->second.state;
}

QString ProgressList::message(const QString &id) const
{
    auto it = m_rows.find(id);
    return it == m_rows.end() ? QString() : it->second.message->text();
}

QString ProgressList::rate(const QString &id) const
{
    auto it = m_rows.find(id);
    return it == m_rows.end() ? QString() : it->second.rate->text();
}
