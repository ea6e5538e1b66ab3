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
