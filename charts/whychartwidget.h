#pragma once
// The Why chart (whychart.h) in a view for the window: drawn at the view's size, its text
// following that size as an export's follows the image's.

#include "charttheme.h"
#include "whychartdata.h"
#include <QGraphicsView>

class WhyChart;

class WhyChartWidget : public QGraphicsView {
    Q_OBJECT
public:
    explicit WhyChartWidget(QWidget *parent = nullptr);

    void setData(const WhyChartData &data);
    void setTheme(ColorTheme theme);
    const WhyChart *chart() const { return m_chart; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fit();

    QGraphicsScene *m_scene = nullptr;
    WhyChart *m_chart = nullptr;
    ColorTheme m_theme = ColorTheme::Light;
};
