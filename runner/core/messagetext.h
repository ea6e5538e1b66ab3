#pragma once
// Text a server, a file or another program chose, shown inside one of Versus's messages. Printed
// raw, a line break splits the message and a terminal escape rewrites the user's terminal (clears
// it, retitles it, hides what follows); a megabyte of it buries the message.

#include <QString>

// `text` in double quotes, one line: a line break, a tab, a backslash and a quote escaped as in
// C (\n, \r, \t, \\, \"), every other control or invisible formatting character as \xHH or
// \uHHHH, and anything past `mostCharacters` left out with its length said:
// "127.0.0.1\n\x1b[2J", "aaaa…" (1048576 characters).
QString quotedForMessage(const QString &text, int mostCharacters = 80);

// `text` as a terminal shows it, never acts on it: every control character (ESC, a bare
// carriage return, DEL, the C1 controls), line and paragraph separator and invisible formatting
// character (the bidirectional overrides U+202A–U+202E and isolates U+2066–U+2069, zero-width
// joiners) written as its escape, \x1b, \x9b, \u202e; everything else, a tab and, with
// LineBreaks::Kept, a line feed as itself. Every line Versus writes to a terminal goes through it,
// so a reply, a bundle or an option that carries escapes cannot clear the screen, move the cursor
// or reorder the words around it. LineBreaks::Shown keeps a name on one line ("a\nb").
enum class LineBreaks { Kept, Shown };
QString terminalText(const QString &text, LineBreaks lineBreaks = LineBreaks::Kept);

// One character as terminalText shows it: itself when it shows as itself, else its escape.
// markdownText and the Markdown code span use it too, so every output shows one escape alike.
QString visibleCharacter(char32_t c);
