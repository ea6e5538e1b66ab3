#pragma once
// The one way the command line writes text to stdout and stderr: through terminalText
// (messagetext.h), so what a server, a bundle or an option said (a reply, a setting's name, an
// ACL user, --sni) shows as text and never acts on the terminal. Versus's own cursor moves are
// written beside it, never through it.

#include <QString>
#include <cstdio>

void writeTerminal(std::FILE *stream, const QString &text);
