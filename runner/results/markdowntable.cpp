#include "markdowntable.h"

#include "figuremarks.h"
#include "messagetext.h"
#include "presentation.h"

#include <algorithm>

namespace {

// HTML's < and > as entities and line breaks as spaces; false for any other character.
bool appendShownAsText(QString &out, QChar c)
{
    if (c == QLatin1Char('<'))
        out += QStringLiteral("&lt;");
    else if (c == QLatin1Char('>'))
        out += QStringLiteral("&gt;");
    else if (c == QLatin1Char('\n') || c == QLatin1Char('\r'))
        out += QLatin1Char(' ');
    else
        return false;
    return true;
}

// A table cell stays one cell on one line: its pipes are escaped (unless markdownText did),
// and HTML in it is shown, not run.
QString tableCell(const QString &cell)
{
    QString escaped;
    escaped.reserve(cell.size());
    for (qsizetype i = 0; i < cell.size(); ++i) {
        const QChar c = cell.at(i);
        if (c == QLatin1Char('|') && (i == 0 || cell.at(i - 1) != QLatin1Char('\\')))
            escaped += QStringLiteral("\\|");
        else if (!appendShownAsText(escaped, c))
            escaped += c;
    }
    return escaped;
}

} // namespace

QString markdownText(const QString &text)
{
    QString escaped;
    escaped.reserve(text.size());
    for (const char32_t c : text.toUcs4()) {
        const QString shown = c == '\n' || c == '\r' || c == '\t' ? QStringLiteral(" ") : visibleCharacter(c);
        for (const QChar s : shown) {
            if (s == QLatin1Char('&'))
                escaped += QStringLiteral("&amp;");
            else if (QStringLiteral("\\`*_[]|#").contains(s))
                escaped += QLatin1Char('\\') + s;
            else if (!appendShownAsText(escaped, s))
                escaped += s;
        }
    }
    return escaped;
}

QString markdownCode(const QString &text)
{
    QString shown;
    shown.reserve(text.size());
    for (const char32_t c : text.toUcs4())
        shown += c == '\n' ? QStringLiteral("\\n") : visibleCharacter(c);
    // A run of backticks inside ends only a span opened by a run of the same length: open with
    // one more than the longest inside, and pad with a space when the text starts or ends with
    // one (CommonMark strips that space).
    qsizetype longest = 0;
    for (qsizetype i = 0, run = 0; i < shown.size(); ++i) {
        run = shown.at(i) == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(longest + 1, QLatin1Char('`'));
    const bool padded = shown.startsWith(QLatin1Char('`')) || shown.endsWith(QLatin1Char('`'));
    const QString pad = padded ? QStringLiteral(" ") : QString();
    return fence + pad + shown + pad + fence;
}

QString markdownRow(const QStringList &cells)
{
    QString row = QStringLiteral("|");
    for (const QString &cell : cells)
        row += cell.isEmpty() ? QStringLiteral(" |") : QStringLiteral(" ") + tableCell(cell) + QStringLiteral(" |");
    return row + QLatin1Char('\n');
}

QString markdownHeader(const QString &first, const QStringList &ids)
{
    QString header = markdownRow(QStringList{first} + ids) + QStringLiteral("|---");
    for (int i = 0; i < ids.size(); ++i)
        header += QStringLiteral("|---:");
    return header + QStringLiteral("|\n");
}

QString MarkdownNotes::label(const FigureCategory &category)
{
    if (category.scope.isEmpty() || !category.isOverall())
        return category.label;
    scopes << category.scope;
    return category.label + QStringLiteral(" (%1)").arg(scopes.size());
}

QString MarkdownNotes::text(const QString &tableNote) const
{
    QStringList lines;
    for (int i = 0; i < scopes.size(); ++i)
        lines << QStringLiteral("(%1) %2.").arg(i + 1).arg(markdownText(scopes[i].left(1).toUpper() + scopes[i].mid(1)));
    for (FigureState state : {FigureState::Incomplete, FigureState::Provisional}) {
        if (marks.count(state))
            lines << figureMarkNote(state);
    }
    if (unresolved)
        lines << unresolvedMarkNote();
    if (!tableNote.isEmpty())
        lines << markdownText(tableNote);
    return lines.isEmpty() ? QString() : QStringLiteral("\n") + lines.join(QStringLiteral("\n")) + QLatin1Char('\n');
}

void appendMarkdownRows(QString &markdown, const FigureTable &table, const QStringList &ids, MarkdownNotes &notes,
                        const std::function<QString(const Figure &)> &cell)
{
    for (size_t c = 0; c < table.categories.size(); ++c) {
        QStringList cells{markdownText(notes.label(table.categories[c]))};
        for (const QString &id : ids) {
            const Figure &figure = table.at(int(c), id);
            cells << (cell ? cell(figure) : markdownCell(figure));
            notes.marks.insert(figure.state);
            notes.unresolved = notes.unresolved || !unresolvedMark(figure).isEmpty();
        }
        markdown += markdownRow(cells);
    }
}


QString buildCaveatsOfTables(const Figures &figures)
{
    QStringList caveats{figures.allocatorCaveat(), figures.timeBuildCaveat(), figures.bottleneckNote()};
    caveats.removeAll(QString());
    return caveats.join(QLatin1Char(' '));
}

QString markdownCell(const Figure &figure)
{
    switch (figure.state) {
    case FigureState::Unsupported: return QStringLiteral("unsupported");
    case FigureState::NotRun: return markdownText(figure.note);
    case FigureState::Failed: return QStringLiteral("failed");
    case FigureState::Absent: return figure.note.isEmpty() ? QStringLiteral("—") : markdownText(figure.note);
    case FigureState::Pending: return QStringLiteral("pending");
    default: break;
    }
    QString text = formatFigure(figure.value);
    if (figure.change)
        text += QStringLiteral(" (") + withUnresolvedMark(formatPercentChange(*figure.change), figure) + QLatin1Char(')');
    return withFigureMark(withBottleneckMark(text, figure), figure.state);
}

QString markdownServerName(const Figures &figures, const QString &id)
{
    return markdownText(figures.summary(id).name);
}

QStringList markdownServerNames(const Figures &figures, const QStringList &ids)
{
    QStringList names;
    for (const QString &id : ids)
        names << markdownServerName(figures, id);
    return names;
}
