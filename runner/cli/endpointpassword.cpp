#include "endpointpassword.h"

#include "interruptibleline.h"
#include "messagetext.h"
#include "secretvariables.h"

#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace {

constexpr size_t kLongestPassword = 4096;

// Echo off for as long as it lives; line editing (backspace) still works.
class EchoOff {
public:
    explicit EchoOff(int fd) : m_fd(fd)
    {
        m_saved = tcgetattr(fd, &m_old) == 0;
        if (!m_saved)
            return;
        termios quiet = m_old;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ICANON;
        tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    ~EchoOff()
    {
        if (m_saved)
            tcsetattr(m_fd, TCSANOW, &m_old);
    }
    EchoOff(const EchoOff &) = delete;
    EchoOff &operator=(const EchoOff &) = delete;

private:
    int m_fd;
    termios m_old {};
    bool m_saved = false;
};

Outcome<QString> askPassword()
{
    const bool terminal = isatty(STDIN_FILENO) != 0;
    Outcome<QString> typed = QString();
    {
        // Destroyed after the echo is back on: a Ctrl-C caught is raised again only then.
        InterruptibleLine interruptible;
        const QString what = QStringLiteral("the password");
        if (terminal) {
            EchoOff quiet(STDIN_FILENO);   // before the prompt: nothing typed after it is echoed
            std::fputs("Password for the endpoints: ", stderr);
            std::fflush(stderr);
            typed = interruptible.readLine(STDIN_FILENO, kLongestPassword, what);
            std::fputs("\n", stderr);
        } else {
            typed = interruptible.readLine(STDIN_FILENO, kLongestPassword, what);
        }
    }
    if (!typed)
        return Error{QStringLiteral("--askpass: ") + typed.error()};
    if (typed->isEmpty())
        return Error{terminal ? QStringLiteral("--askpass: no password was typed")
                              : QStringLiteral("--askpass: stdin is not a terminal and its first line is empty")};
    return typed;
}

} // namespace

void addPasswordOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("askpass"),
         QStringLiteral("Read the endpoints' AUTH password from the terminal without echo (one line from stdin when it is "
                        "not a terminal). Without --askpass or --password, the environment variable VERSUS_PASSWORD is used, "
                        "else valkey-cli's VALKEYCLI_AUTH or REDISCLI_AUTH (said on stderr).")},
        {QStringLiteral("password"),
         QStringLiteral("AUTH password for host:port endpoints. Visible to every local user in /proc/<pid>/cmdline (and "
                        "kept in shell history): prefer --askpass or VERSUS_PASSWORD. Not with --askpass."),
         QStringLiteral("password")},
        {QStringLiteral("user"),
         QStringLiteral("Log in to host:port endpoints as this ACL user (AUTH user password), as valkey-cli's --user does, "
                        "for a server whose default user is off or may not do what a run needs. Needs a password "
                        "(--askpass, VERSUS_PASSWORD or --password)."),
         QStringLiteral("name")},
        {QStringLiteral("allow-cluster-auth"),
         QStringLiteral("Send the endpoints' login (password, --user) also to the other primaries of a cluster endpoint's "
                        "cluster when they ask for one. Without it only the node named in --servers is sent it, and a "
                        "cluster whose other primaries need a password is refused, naming them: an address a cluster "
                        "node names may be anyone's.")},
    });
}

Status checkPasswordOptions(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("askpass")) && parser.isSet(QStringLiteral("password")))
        return Error{QStringLiteral("--askpass and --password both give the endpoints' password; give one of them")};
    if (parser.isSet(QStringLiteral("user")) && parser.value(QStringLiteral("user")).trimmed().isEmpty())
        return Error{QStringLiteral("--user: expected an ACL user name, got an empty one")};
    return Status::success();
}

namespace {

// The first password variable that is set (VERSUS_PASSWORD, VALKEYCLI_AUTH, REDISCLI_AUTH), or
// an empty name. Set but empty counts as set: the user said "no password" on purpose.
QString firstVariableSet()
{
    if (secretVariable(kPasswordVariable))
        return QLatin1String(kPasswordVariable);
    for (const char *variable : kCliPasswordVariables) {
        if (secretVariable(variable))
            return QLatin1String(variable);
    }
    return QString();
}

} // namespace

Outcome<EndpointPassword> readEndpointPassword(const QCommandLineParser &parser)
{
    if (Status checked = checkPasswordOptions(parser); !checked)
        return Error{checked.error()};
    EndpointPassword result;
    const QString variable = firstVariableSet();
    const QString option = parser.isSet(QStringLiteral("askpass")) ? QStringLiteral("--askpass")
                         : parser.isSet(QStringLiteral("password")) ? QStringLiteral("--password")
                                                                    : QString();
    if (!variable.isEmpty() && !option.isEmpty())
        result.notices << QStringLiteral("%1 is set, but %2 is given and used").arg(variable, option);
    if (option == QLatin1String("--askpass")) {
        Outcome<QString> typed = askPassword();
        if (!typed)
            return Error{typed.error()};
        result.password = typed.value();
    } else if (option == QLatin1String("--password")) {
        result.password = parser.value(QStringLiteral("password"));
    } else if (!variable.isEmpty()) {
        result.password = secretVariable(variable.toLatin1().constData()).value_or(QString());
        if (variable != QLatin1String(kPasswordVariable))
            result.notices << QStringLiteral("the endpoints' password is taken from %1 (valkey-cli's variable; %2 "
                                             "or --askpass give one for Versus alone)")
                                  .arg(variable, QLatin1String(kPasswordVariable));
    }
    result.user = parser.value(QStringLiteral("user"));
    if (!result.user.isEmpty() && result.password.isEmpty())
        return Error{QStringLiteral("--user %1 needs a password: give it with %2").arg(quotedForMessage(result.user), howToGivePassword())};
    return result;
}

QString howToGivePassword()
{
    return QStringLiteral("--askpass, %1 (or valkey-cli's VALKEYCLI_AUTH, REDISCLI_AUTH) or --password")
        .arg(QLatin1String(kPasswordVariable));
}
