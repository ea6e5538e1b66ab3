#include "hostport.h"

#include <QRegularExpression>
#include <arpa/inet.h>
#include <netinet/in.h>

bool isIpAddress(const QString &text)
{
    for (const QChar c : text) {
        if (c.unicode() == 0 || c.unicode() >= 0x80)
            return false;   // a NUL would end the text inet_pton reads early
    }
    const QByteArray ascii = text.toLatin1();
    in6_addr address{};
    return inet_pton(AF_INET, ascii.constData(), &address) == 1 || inet_pton(AF_INET6, ascii.constData(), &address) == 1;
}

bool isHostName(const QString &text)
{
    // \z, not $: $ also matches before a final line break.
    static const QRegularExpression name(QStringLiteral("^(?=.{1,253}\\z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                                                        "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?\\z"));
    return name.match(text).hasMatch();
}
