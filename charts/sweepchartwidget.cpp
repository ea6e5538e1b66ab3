#include "sweepchartwidget.h"

#include "sweepchart.h"
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

struct SweepChartWidget::Private {
    // The update's one Figures: the sweep tables it computed once, with its hidden versions.
    Figures figures{ResultsBundle()};
    ColorTheme theme = ColorTheme::Light;
    std::optional<ChartFontSizes> fixedFonts;
    QComboBox *kind = nullptr;
    QLabel *title = nullptr;
    QLabel *empty = nullptr;   // in the chart's place when the results have no sweep
    SweepChart *chart = nullptr;
    QChartView *view = nullptr;
};

SweepChartWidget::SweepChartWidget(QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->kind = new QComboBox;
    d->kind->setObjectName(QStringLiteral("sweepMeasure"));
    d->title = new QLabel;
    d->title->setObjectName(QStringLiteral("sweepTitle"));
    d->title->setWordWrap(true);
    d->chart = new SweepChart(d->theme);
    d->view = new QChartView(d->chart);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setFrameShape(QFrame::NoFrame);
    d->empty = new QLabel;
    d->empty->setObjectName(QStringLiteral("sweepEmpty"));
    d->empty->setAlignment(Qt::AlignCenter);
    d->empty->setWordWrap(true);
    d->empty->setStyleSheet(QStringLiteral("color: %1;").arg(chartColors(ColorTheme::Light).mutedText.name()));
    auto *top = new QHBoxLayout;
    top->addWidget(d->title, 1);
    top->addWidget(d->kind, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(d->view, 1);
    layout->addWidget(d->empty, 1);
    refresh();
    connect(d->kind, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refresh(); });
}

SweepChartWidget::~SweepChartWidget() = default;

void SweepChartWidget::setFigures(const Figures &figures)
{
    d->figures = figures;
    const ResultsBundle &bundle = figures.bundle();
    const int chosen = d->kind->currentIndex();
    const QSignalBlocker quiet(d->kind);
    d->kind->clear();
    for (SweepChartKind kind : sweepChartKinds(bundle))
        d->kind->addItem(sweepView(kind).chooserName(bundle), int(kind));
    d->kind->setCurrentIndex(chosen >= 0 && chosen < d->kind->count() ? chosen : 0);
    refresh();
}

void SweepChartWidget::setTheme(ColorTheme theme)
{
    d->theme = theme;
    // The chart keeps its theme from birth: a new one in the same view.
    auto *chart = new SweepChart(theme);
    chart->setFontSizes(d->fixedFonts);
    d->view->setChart(chart);
    delete d->chart;
    d->chart = chart;
    d->view->setBackgroundBrush(chartColors(theme).background);
    refresh();
}

void SweepChartWidget::setFontSizes(const std::optional<ChartFontSizes> &sizes)
{
    d->fixedFonts = sizes;
    d->chart->setFontSizes(sizes);
    QFont titleFont;   // empty: the window's own
    QFont emptyFont;
    if (sizes) {
        titleFont.setPixelSize(int(std::lround(sizes->subtitle)));
        emptyFont.setPixelSize(int(std::lround(sizes->axis)));   // as an empty bar chart says it
    }
    d->title->setFont(titleFont);
    d->empty->setFont(emptyFont);
}

SweepChartKind SweepChartWidget::kind() const
{
    return d->kind->currentIndex() < 0 ? SweepChartKind::MemoryPerKey : SweepChartKind(d->kind->currentData().toInt());
}

void SweepChartWidget::setKind(SweepChartKind kind)
{
    const int index = d->kind->findData(int(kind));
    if (index >= 0)
        d->kind->setCurrentIndex(index);
}

QString SweepChartWidget::titleText() const
{
    return d->title->text();
}

QStringList SweepChartWidget::lineLabels() const
{
    QStringList labels;
    for (const SweepChartLine &line : d->chart->data().lines)
        labels << line.label;
    return labels;
}

QString SweepChartWidget::emptyText() const
{
    return d->empty->isVisibleTo(this) ? d->empty->text() : QString();
}

void SweepChartWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Text and lines follow the view's size, as an export's follow the image's.
    d->chart->setStyleSize(QSizeF(d->view->size()));
}

void SweepChartWidget::refresh()
{
    const bool sweep = d->figures.bundle().isSweep();
    d->view->setVisible(sweep);
    d->kind->setVisible(sweep);
    d->title->setVisible(sweep);
    d->empty->setVisible(!sweep);
    if (!sweep) {
        d->empty->setText(tr("No sweep in these results: a sweep runs hash-ttl at several values of one parameter "
                             "(its Sweep field, e.g. value-size=16,64,256) and shows each figure against it here."));
        d->chart->setData(SweepChartData());
        return;
    }
    const SweepChartKind shown = kind();
    const QString subtitle = defaultSweepSubtitle(d->figures, shown);
    d->title->setText(QStringLiteral("<b>%1</b>%2").arg(defaultSweepTitle(d->figures, shown).toHtmlEscaped(),
                                                          subtitle.isEmpty() ? QString() : QStringLiteral("<br>") + subtitle.toHtmlEscaped()));
    d->chart->setStyleSize(QSizeF(d->view->size()));
    d->chart->setData(buildSweepChartData(d->figures, shown));
}
