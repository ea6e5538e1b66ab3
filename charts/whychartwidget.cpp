#include "whychartwidget.h"

#include "whychart.h"
#include <QResizeEvent>

WhyChartWidget::WhyChartWidget(QWidget *parent) : QGraphicsView(parent)
{
    setObjectName(QStringLiteral("whyChart"));
    m_scene = new QGraphicsScene(this);
    m_chart = new WhyChart(m_theme);
    m_scene->addItem(m_chart);
    setScene(m_scene);
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setBackgroundBrush(chartColors(m_theme).background);
    setMinimumHeight(160);
}

void WhyChartWidget::setData(const WhyChartData &data)
{
    m_chart->setData(data);
}

void WhyChartWidget::setTheme(ColorTheme theme)
{
    m_theme = theme;
    m_chart->setTheme(theme);
    // A transparent theme shows the window's own ground.
    const QColor ground = chartColors(theme).background;
    setBackgroundBrush(ground.alpha() > 0 ? QBrush(ground) : palette().base());
}

void WhyChartWidget::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    fit();
}

void WhyChartWidget::fit()
{
    const QSizeF room = viewport()->size();
    // A small margin on every side, as the bar charts' views keep.
    const double margin = 8;
    const QSizeF size(std::max(1.0, room.width() - 2 * margin), std::max(1.0, room.height() - 2 * margin));
    m_chart->setPos(margin, margin);
    m_chart->setSize(size, size);
    m_scene->setSceneRect(QRectF(QPointF(0, 0), room));
}
