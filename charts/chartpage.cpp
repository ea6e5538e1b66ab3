#include "chartpage.h"

#include "chartfile.h"
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <algorithm>

ChartPage::ChartPage(QSize size, ColorTheme theme) : m_size(size), m_colors(chartColors(theme)) {}

double ChartPage::addLine(const QString &text, const QFont &font, const QColor &color, double y, Qt::TextElideMode elide,
                          QStringList *drawn)
{
    const ChartFontSizes sizes = chartFontSizes(QSizeF(m_size));
    const double textWidth = m_size.width() - 2 * sizes.margin;
    auto *item = new QGraphicsSimpleTextItem(QFontMetricsF(font).elidedText(text, elide, textWidth));
    if (drawn)
        *drawn << item->text();
    item->setFont(font);
    item->setBrush(color);
    item->setPos(sizes.margin, y);
    m_scene.addItem(item);
    return QFontMetricsF(font).height();
}

QRectF ChartPage::compose(const QString &title, const QString &subtitle, const QStringList &footnotes)
{
    m_scene.clear();
    m_titleLines.clear();
    m_subtitleLines.clear();
    m_footnoteLines.clear();
    const ChartFontSizes sizes = chartFontSizes(QSizeF(m_size));
    const double margin = sizes.margin;
    const double textWidth = m_size.width() - 2 * margin;
    m_scene.setSceneRect(QRectF(QPointF(0, 0), QSizeF(m_size)));
    m_scene.setBackgroundBrush(Qt::NoBrush);

    double top = margin * 0.8;
    if (!title.isEmpty()) {
        // A long title wraps to a second line. One that would need a third is set smaller first
        // (down to four fifths of its size), and only then cut short in its middle, so the end,
        // where the headline change stands ("…: −10.0%"), stays: a cut loses the figures before it.
        QFont titleFont = chartFont(sizes.title, true);
        QStringList lines = wrappedLines(title, titleFont, textWidth);
        for (int fifth = 19; lines.size() > 2 && fifth >= 16; --fifth) {
            titleFont = chartFont(sizes.title * fifth / 20.0, true);
            lines = wrappedLines(title, titleFont, textWidth);
        }
        top += addLine(lines.value(0), titleFont, m_colors.text, top, Qt::ElideRight, &m_titleLines);
        if (lines.size() > 1)
            top += addLine(QStringList(lines.mid(1)).join(QLatin1Char(' ')), titleFont, m_colors.text, top,
                           Qt::ElideMiddle, &m_titleLines);
        top += sizes.title * 0.2;
    }
    const QFont subtitleFont = chartFont(sizes.subtitle);
    for (const QString &paragraph : subtitle.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        for (const QString &line : wrappedLines(paragraph, subtitleFont, textWidth))
            top += addLine(line, subtitleFont, m_colors.mutedText, top, Qt::ElideRight, &m_subtitleLines);
    }
    top += margin * 0.35;
    double bottom = m_size.height() - margin * 0.7;
    const QFont footnoteFont = chartFont(sizes.footnote);
    QStringList lines;
    for (const QString &note : footnotes)
        lines << wrappedLines(note, footnoteFont, textWidth);
    for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
        bottom -= QFontMetricsF(footnoteFont).height();
        addLine(*line, footnoteFont, m_colors.mutedText, bottom, Qt::ElideRight, &m_footnoteLines);
    }
    std::reverse(m_footnoteLines.begin(), m_footnoteLines.end());   // drawn bottom up
    if (!lines.isEmpty())
        bottom -= margin * 0.35;
    return QRectF(margin * 0.6, top, m_size.width() - margin * 1.2, bottom - top);
}

void ChartPage::place(QChart *chart, const QRectF &area)
{
    chart->setBackgroundVisible(false);
    m_scene.addItem(chart);
    chart->setGeometry(area);
    if (chart->layout())
        chart->layout()->activate();
}

void ChartPage::render(QPainter *painter, const QRectF &target)
{
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    if (m_colors.background.alpha() > 0)
        painter->fillRect(target, m_colors.background);
    m_scene.render(painter, target, QRectF(QPointF(0, 0), QSizeF(m_size)), Qt::IgnoreAspectRatio);
}
