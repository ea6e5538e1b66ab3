#include "terminalwrite.h"

#include "messagetext.h"

void writeTerminal(std::FILE *stream, const QString &text)
{
    std::fputs(terminalText(text).toLocal8Bit().constData(), stream);
}
