#pragma once
// The page an exported chart stands on: its title (two lines at most, a long second one cut in
// its middle so the headline change at its end stays), the subtitle (each of its lines, the build
// caveat being one, wrapped to the width), the footnote lines at the bottom, and the room left
// between them for the chart. The bar charts, the sweep charts and the Why chart are laid out on
// it alike, and written by one function (writeChartFile(), chartfile.h).

#include "charttheme.h"
#include <QGraphicsScene>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

class QChart;
class QPainter;

class ChartPage {
public:
    ChartPage(QSize size, ColorTheme theme);

    // Empties the scene and lays the texts out; returns the room left for the chart, in layout
    // pixels. An empty title or subtitle takes no room.
    QRectF compose(const QString &title, const QString &subtitle, const QStringList &footnotes);
    // The scene the texts stand in, for the chart to be added to (it then owns the chart).
    QGraphicsScene &scene() { return m_scene; }
    // Puts `chart` (its style size and data set) into `area`, compose()'s room, without a
    // background of its own (the page paints it), and lays it out now: nothing turns the event
    // loop between composing and rendering. The scene owns the chart.
    void place(QChart *chart, const QRectF &area);
    // Paints the page, background included (none for the transparent themes), filling `target`.
    void render(QPainter *painter, const QRectF &target);

    QSize size() const { return m_size; }
    ChartColors colors() const { return m_colors; }
    // The texts as drawn, for tests: the title's one or two lines, the subtitle's lines, the
    // footnote's lines (each note wrapped to the width).
    QStringList titleLines() const { return m_titleLines; }
    QStringList subtitleLines() const { return m_subtitleLines; }
    QStringList footnoteLines() const { return m_footnoteLines; }

private:
    double addLine(const QString &text, const QFont &font, const QColor &color, double y, Qt::TextElideMode elide,
                   QStringList *drawn = nullptr);

    QSize m_size;
    ChartColors m_colors;
    QGraphicsScene m_scene;
    QStringList m_titleLines;
    QStringList m_subtitleLines;
    QStringList m_footnoteLines;
};
