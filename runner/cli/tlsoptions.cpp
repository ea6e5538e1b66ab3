#include "tlsoptions.h"

#include <QFileInfo>

namespace {

const char *const kEndpointOptions[] = {"cacert", "cert", "key", "sni", "insecure"};

Status readableFile(const QCommandLineParser &parser, const QString &option)
{
    if (!parser.isSet(option))
        return Status::success();
    const QFileInfo file(parser.value(option));
    if (!file.isFile() || !file.isReadable())
        return Error{QStringLiteral("--%1: %2 is not a readable file").arg(option, parser.value(option))};
    return Status::success();
}

} // namespace

void addTlsOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("tls"), QStringLiteral("Connect to endpoints over TLS; launched servers are launched TLS-only, each "
                                               "with a throwaway certificate made for the run.")},
        {QStringLiteral("cacert"), QStringLiteral("With --tls: the CA certificates (PEM) that may sign an endpoint's certificate "
                                                  "(default: the system's trusted CAs)."),
         QStringLiteral("file")},
        {QStringLiteral("cert"), QStringLiteral("With --tls: a client certificate (PEM) for endpoints that ask for one."), QStringLiteral("file")},
        {QStringLiteral("key"), QStringLiteral("With --tls: the client certificate's private key (PEM)."), QStringLiteral("file")},
        {QStringLiteral("sni"), QStringLiteral("With --tls: the server name sent and checked against the endpoint's certificate "
                                               "(default: the host given)."),
         QStringLiteral("name")},
        {QStringLiteral("insecure"), QStringLiteral("With --tls: do not check the endpoint's certificate at all. Anyone on the "
                                                    "path can then read and change the traffic, the password included.")},
    });
}

bool hasEndpointTlsOptions(const QCommandLineParser &parser)
{
    for (const char *option : kEndpointOptions) {
        if (parser.isSet(QLatin1String(option)))
            return true;
    }
    return false;
}

Outcome<TlsChoice> tlsChoiceFromParser(const QCommandLineParser &parser)
{
    TlsChoice choice;
    if (!parser.isSet(QStringLiteral("tls"))) {
        for (const char *option : kEndpointOptions) {
            if (parser.isSet(QLatin1String(option)))
                return Error{QStringLiteral("--%1 needs --tls").arg(QLatin1String(option))};
        }
        return choice;
    }
    if (parser.isSet(QStringLiteral("cert")) != parser.isSet(QStringLiteral("key")))
        return Error{parser.isSet(QStringLiteral("cert")) ? QStringLiteral("--cert needs --key, the certificate's private key")
                                                          : QStringLiteral("--key needs --cert, the certificate it belongs to")};
    for (const QString &option : {QStringLiteral("cacert"), QStringLiteral("cert"), QStringLiteral("key")}) {
        if (Status readable = readableFile(parser, option); !readable)
            return Error{readable.error()};
    }
    TlsSettings &tls = choice.settings;
    tls.enabled = true;
    tls.caCertFile = parser.value(QStringLiteral("cacert"));
    tls.certFile = parser.value(QStringLiteral("cert"));
    tls.keyFile = parser.value(QStringLiteral("key"));
    tls.serverName = parser.value(QStringLiteral("sni"));
    tls.insecure = parser.isSet(QStringLiteral("insecure"));
    if (Status files = checkTlsFiles(tls); !files)
        return Error{QStringLiteral("--tls: %1").arg(files.error())};
    if (tls.insecure)
        choice.notices << insecureWarning(QStringLiteral("every endpoint"));
    return choice;
}
