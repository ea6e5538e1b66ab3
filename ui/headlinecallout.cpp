#include "headlinecallout.h"

#include "chartdata.h"
#include "charttheme.h"
#include <QLabel>
#include <QVBoxLayout>

HeadlineCallout::HeadlineCallout(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("headlineCallout"));
    m_number = new QLabel;
    m_number->setObjectName(QStringLiteral("calloutChange"));
    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("calloutCaption"));
    m_caption->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_number);
    layout->addWidget(m_caption);
    setPixelSizes(96, 32);
}

void HeadlineCallout::setPixelSizes(int number, int caption)
{
    m_number->setFont(chartFont(number, true));
    m_caption->setFont(chartFont(caption));
}

bool HeadlineCallout::showHeadline(const Figures &figures, ChartKind kind)
{
    const std::optional<ChartHeadline> headline = chartHeadline(figures, kind);
    if (!headline) {
        m_number->clear();
        m_caption->clear();
        return false;
    }
    // The window's table colours, which read on the window's light ground.
    const ChartColors colors = chartColors(ColorTheme::Light);
    QColor color = colors.text;
    if (headline->versions.isEmpty()) {
        // No change to tell (hash-ttl on one version, or no total): the reference ratio.
        m_number->setText(headline->ratioMultiple);
        m_caption->setText(headline->ratioCaption);
    } else {
        // A time change the run did not resolve is shown, uncoloured, with why beneath it.
        m_caption->setText(headline->caption() + (headline->provisional ? tr(" (provisional)") : QString())
                           + (headline->unresolved.isEmpty() || headline->change.isEmpty() ? QString()
                                                                                             : QStringLiteral("; ") + headline->unresolved));
        if (headline->change.isEmpty()) {
            // Not settled yet (a run going on): the word the charts use, muted. DejaVu's "…"
            // at this size is three square dots, which read as glyphs the font lacks.
            m_number->setText(tr("pending"));
            color = colors.mutedText;
        } else {
            m_number->setText(headline->change);
            if (headline->meaning == ChangeMeaning::Better)
                color = colors.better;
            else if (headline->meaning == ChangeMeaning::Worse)
                color = colors.worse;
        }
    }
    m_number->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
    m_caption->setStyleSheet(QStringLiteral("color: %1;").arg(colors.mutedText.name()));
    return true;
}

QString HeadlineCallout::changeText() const
{
    return m_number->text();
}

QString HeadlineCallout::captionText() const
{
    return m_caption->text();
}
