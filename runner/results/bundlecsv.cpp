#include "bundlecsv.h"

namespace {

QString csvNumber(double value)
{
    return QString::number(value, 'g', 10);
}

void appendRows(QString &csv, const QString &server, const char *metric, const FigureTable &table)
{
    for (size_t c = 0; c < table.categories.size(); ++c) {
        const Figure &figure = table.at(int(c), server);
        if (figure.state == FigureState::Absent)
            continue;
        const FigureCategory &of = table.categories[c];
        const QString category = of.isOverall() ? QStringLiteral("overall") : of.id;
        QStringList cells{csvField(server), QLatin1String(metric), csvField(category)};
        if (figure.hasValue())
            cells << csvNumber(figure.value) << csvNumber(figure.spread.min) << csvNumber(figure.spread.max)
                  << QString::number(figure.spread.n);
        else
            cells << QString() << QString() << QString() << QStringLiteral("0");
        cells << figureStateName(figure.state);
        csv += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
}

} // namespace

QString csvField(const QString &value)
{
    QString text = value;
    // A spreadsheet runs a cell starting with = + - @ as a formula, and skips a leading tab or
    // carriage return before it: such a cell starts with ' so that it stays text.
    static const QString formulaStarts = QStringLiteral("=+-@\t\r");
    if (!text.isEmpty() && formulaStarts.contains(text.front()))
        text.prepend(QLatin1Char('\''));
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
        && !text.contains(QLatin1Char('\r')) && text == value)
        return text;
    text.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString bundleToCsv(const Figures &figures, CategoryOrder order)
{
    QString csv = QStringLiteral("server,metric,category,value,min,max,repeats,state\n");
    const FigureTable memory = inCategoryOrder(figures.memory(), figures.baselineId(), order);
    const FigureTable times = inCategoryOrder(figures.allCommandTimes(), figures.baselineId(), order);
    const FigureTable perEvent = figures.perEvent();
    const FigureTable events = figures.client(Measure::EventsPerSecond);
    const FigureTable commands = figures.client(Measure::CommandsPerSecond);
    for (const QString &id : figures.serverIds()) {
        if (!figures.summary(id).hasFigures())
            continue;
        appendRows(csv, id, "bytes_per_key", memory);
        appendRows(csv, id, "usec_per_call", times);
        appendRows(csv, id, "usec_per_event", perEvent);
        appendRows(csv, id, "events_per_second", events);
        appendRows(csv, id, "commands_per_second", commands);
    }
    return csv;
}

QString bundleToCsv(const ResultsBundle &bundle)
{
    return bundleToCsv(Figures(bundle));
}
