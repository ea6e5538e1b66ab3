#pragma once
// Markdown tables of figures, shared by what `versus run` prints (bundlemarkdown.h) and the
// report written beside exported charts (reportmarkdown.h). They format figures, compute none.

#include "figures.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <set>

// Text from a bundle, an option or a server reply, as Markdown that shows it as it is: Markdown's
// marks backslashed, HTML's < > & as entities, line breaks as spaces, and what a terminal would
// act on (ESC, the C1 controls, bidirectional overrides) as its escape, "\\x1b" (terminalText).
QString markdownText(const QString &text);
// The same text as a code span that shows it as it is, whatever it holds: fenced by one backtick
// more than its longest run of them, so a backtick inside never ends the span and the HTML after
// it stays text ("``a`b``", "`` `x ``"); control and formatting characters as their escapes,
// a line break as \n. A table row escapes its pipes (markdownRow).
QString markdownCode(const QString &text);
// "| a | b |"; an empty cell stays "| |". Each cell stays one cell: its pipes escaped, its HTML
// shown as text, its line breaks spaces.
QString markdownRow(const QStringList &cells);
// A header row naming the columns, then the alignment row: labels left, figures right.
QString markdownHeader(const QString &first, const QStringList &columns);

// A server as tables name it, from the figures layer: "Valkey 9.1.2 (upstream build)".
QString markdownServerName(const Figures &figures, const QString &id);
QStringList markdownServerNames(const Figures &figures, const QStringList &ids);

// The build's sentences for tables of memory and time alike: the allocator's for memory, then
// time's where the run resolved a time difference between builds (Figures::allocatorCaveat(),
// timeBuildCaveat()).
QString buildCaveatsOfTables(const Figures &figures);

// One table cell: "217.6 (−10.0%)", "0.52 (−3.1%) ‡", "0.31 (−0.7% †)", "unsupported", "failed", "—".
QString markdownCell(const Figure &figure);

// The marks a table used, and what the footnotes under it say.
struct MarkdownNotes {
    std::set<FigureState> marks;
    QStringList scopes;
    bool unresolved = false;   // a time change the run did not resolve carries "†"

    // The category's label, numbered when it is a total over part of the work.
    QString label(const FigureCategory &category);
    // The footnotes: the totals' scopes, the marks used, then `tableNote`.
    QString text(const QString &tableNote) const;
};

// One row per category of `table`, one column per server of `ids`; `cell` formats a figure
// (markdownCell when empty).
void appendMarkdownRows(QString &markdown, const FigureTable &table, const QStringList &ids, MarkdownNotes &notes,
                        const std::function<QString(const Figure &)> &cell = {});

// "### Configuration differences": the settings that differ between the compared servers, as a
// table (those bearing on the figures first), the settings only some versions have as one
// line, and what --server-config applied or each server refused. Empty with fewer than two
// servers that recorded their settings. Columns are named by `columnName` (id or display name).
// With OnlySomeSettings::Counted the settings only some versions have (and that bear on no
// figure) are counted, not listed: the terminal's last screen is for the answer.
enum class OnlySomeSettings { Listed, Counted };
QString configDifferencesMarkdown(const Figures &figures, const std::function<QString(const QString &)> &columnName,
                                  const QString &heading = QStringLiteral("###"),
                                  OnlySomeSettings onlySome = OnlySomeSettings::Listed);

// "### Memory against set-ex": each type's bytes per key as a multiple of the workload's
// reference type on the same server ("1.83×", ± over repeats), with the value size the
// workload used. Empty for workloads without a reference type.
QString referenceRatiosMarkdown(const Figures &figures, const QStringList &ids,
                                const std::function<QString(const QString &)> &columnName,
                                const QString &heading = QStringLiteral("###"));
