#include "messagetext.h"

#include <QList>

namespace {

// A character that shows as itself: not a control character, not an invisible format character
// (bidirectional overrides, zero-width joiners), not a lone surrogate or an unassigned one.
bool showsAsItself(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return false;
    default:
        return true;
    }
}

QString escapeOf(char32_t c)
{
    if (c < 0x100)
        return QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    return QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
}

QString escaped(char32_t c)
{
    switch (c) {
    case '\n': return QStringLiteral("\\n");
    case '\r': return QStringLiteral("\\r");
    case '\t': return QStringLiteral("\\t");
    case '\\': return QStringLiteral("\\\\");
    case '"': return QStringLiteral("\\\"");
    default: break;
    }
    return visibleCharacter(c);
}

} // namespace

QString quotedForMessage(const QString &text, int mostCharacters)
{
    QString quoted(QLatin1Char('"'));
    const QString shown = text.left(mostCharacters);
    for (const char32_t c : shown.toUcs4())
        quoted += escaped(c);
    if (shown.size() < text.size())
        return quoted + QStringLiteral("\u2026\" (%1 characters)").arg(text.size());
    return quoted + QLatin1Char('"');
}

QString visibleCharacter(char32_t c)
{
    return showsAsItself(c) ? QString::fromUcs4(&c, 1) : escapeOf(c);
}

QString terminalText(const QString &text, LineBreaks lineBreaks)
{
    QString shown;
    shown.reserve(text.size());
    for (const char32_t c : text.toUcs4()) {
        if (c == '\t' || (c == '\n' && lineBreaks == LineBreaks::Kept))
            shown += QChar(c);
        else if (c == '\n')
            shown += QStringLiteral("\\n");
        else
            shown += visibleCharacter(c);
    }
    return shown;
}
