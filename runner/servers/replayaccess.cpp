#include "replayaccess.h"

#include "redisconnection.h"
#include "replayrules.h"
#include "replayusers.h"

#include <algorithm>
#include <utility>

namespace {

constexpr size_t kCategoriesField = 6;    // COMMAND INFO: the command's ACL categories
constexpr size_t kSubcommandsField = 9;   // COMMAND INFO: a container's subcommands

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return text;
}

QStringList categoriesOf(const Reply &entry)
{
    QStringList categories;
    if (entry.kind != Reply::Kind::Array || entry.elements.size() <= kCategoriesField)
        return categories;
    for (const Reply &category : entry.elements[kCategoriesField].elements)
        categories << QString::fromStdString(category.text).toLower();
    return categories;
}

Status connectAs(RedisConnection &connection, const EndpointLogin &login)
{
    Status connected = connection.connectTcp(login.host, login.port, login.timeoutMs, login.name, login.tls);
    if (connected)
        connected = connection.auth(login.owner);
    return connected;
}

std::vector<std::string> words(const QStringList &list)
{
    std::vector<std::string> result;
    for (const QString &word : list)
        result.push_back(word.toStdString());
    return result;
}

} // namespace

std::string SendFilter::refusalOf(const std::vector<std::string> &args) const
{
    if (args.empty())
        return {};
    const std::string name = upper(args.front());
    if (commands.count(name))
        return name;
    if (args.size() > 1 && !subcommands.empty()) {
        const std::string subcommand = upper(args[1]);
        if (subcommands.count(name + '|' + subcommand))
            return name + ' ' + subcommand;
    }
    return {};
}

QStringList SendFilter::labels() const
{
    QStringList labels;
    for (const std::string &command : commands)
        labels << QString::fromStdString(command);
    for (const std::string &subcommand : subcommands)
        labels << QString::fromStdString(subcommand).replace(QLatin1Char('|'), QLatin1Char(' '));
    labels.sort();
    return labels;
}

ReplayAccess ReplayAccess::launched(const Credentials &replayUser)
{
    ReplayAccess access;
    access.m_mode = Mode::OwnLogin;
    access.m_replay = replayUser;
    return access;
}

Outcome<ReplayAccess> ReplayAccess::forEndpoint(const EndpointLogin &login, const QStringList &commandNames)
{
    ReplayAccess access;
    access.m_login = login;
    QString refusal;
    if (Status created = access.createTemporaryUser(&refusal); !created)
        return Error{created.error()};
    if (access.m_userExists) {
        access.m_mode = Mode::TemporaryUser;
        return access;
    }
    access.m_mode = Mode::CheckedBeforeSending;
    access.m_refusal = refusal;
    access.m_replay = login.owner;
    if (Status built = access.buildFilter(commandNames); !built)
        return Error{built.error()};
    return access;
}

ReplayAccess::ReplayAccess(ReplayAccess &&other) noexcept
{
    *this = std::move(other);
}

ReplayAccess &ReplayAccess::operator=(ReplayAccess &&other) noexcept
{
    if (this != &other) {
        release();
        m_mode = other.m_mode;
        m_login = std::move(other.m_login);
        m_replay = std::move(other.m_replay);
        m_filter = std::move(other.m_filter);
        m_refusal = std::move(other.m_refusal);
        m_userExists = std::exchange(other.m_userExists, false);
        m_leftoverUsers = std::move(other.m_leftoverUsers);
    }
    return *this;
}

ReplayAccess::~ReplayAccess()
{
    release();
}

Status ReplayAccess::createTemporaryUser(QString *refusal)
{
    RedisConnection connection;
    if (Status connected = connectAs(connection, m_login); !connected)
        return connected;
    // Users of Versus's shape that exist already were left by a run killed before it deleted
    // them (or belong to a run going on now): named for the owner, never deleted by this run.
    if (const Outcome<ReplayUsers> users = replayUsersOn(connection); users)
        m_leftoverUsers = users->versus;
    const Credentials user{newReplayUserName(), ReplayRules::randomPassword()};
    std::vector<std::string> setUser{"ACL", "SETUSER", user.user.toStdString(), "on", ">" + user.password.toStdString()};
    for (const std::string &rule : words(ReplayRules::userRules()))
        setUser.push_back(rule);
    const Outcome<Reply> reply = connection.command(setUser);
    if (!reply)
        return Error{reply.error()};
    if (reply->isError()) {
        *refusal = QString::fromStdString(reply->text);
        return Status::success();
    }
    m_replay = user;
    m_userExists = true;
    return Status::success();
}

Status ReplayAccess::buildFilter(const QStringList &commandNames)
{
    for (const QString &name : commandNames) {
        if (ReplayRules::isScriptCommand(name) || name == QLatin1String("MIGRATE"))
            m_filter.commands.insert(name.toStdString());
    }
    if (commandNames.isEmpty())
        return Status::success();
    RedisConnection connection;
    if (Status connected = connectAs(connection, m_login); !connected)
        return connected;
    std::vector<std::string> ask{"COMMAND", "INFO"};
    for (const std::string &name : words(commandNames))
        ask.push_back(name);
    const Outcome<Reply> reply = connection.command(ask);
    if (!reply)
        return Error{reply.error()};
    if (reply->isError() || reply->elements.size() != size_t(commandNames.size()))
        return Error{QStringLiteral("%1: the endpoint lets Versus neither create a replay user (%2) nor ask which commands "
                                    "are data commands (COMMAND INFO: %3); nothing was sent")
                         .arg(m_login.name, m_refusal, reply->isError() ? QString::fromStdString(reply->text)
                                                                          : QStringLiteral("unexpected reply"))};
    for (qsizetype i = 0; i < commandNames.size(); ++i) {
        const Reply &entry = reply->elements[size_t(i)];
        if (entry.kind != Reply::Kind::Array)
            continue;   // unknown to the server: it answers "unknown command", which marks it unsupported
        const bool container = entry.elements.size() > kSubcommandsField && !entry.elements[kSubcommandsField].elements.empty();
        if (!container) {
            if (!ReplayRules::mayBeSentUnguarded(commandNames[i], categoriesOf(entry)))
                m_filter.commands.insert(commandNames[i].toStdString());
            continue;
        }
        for (const Reply &subcommand : entry.elements[kSubcommandsField].elements) {
            if (subcommand.kind != Reply::Kind::Array || subcommand.elements.empty())
                continue;
            const std::string name = upper(subcommand.elements.front().text);
            if (!ReplayRules::mayBeSentUnguarded(QString::fromStdString(name), categoriesOf(subcommand)))
                m_filter.subcommands.insert(name);
        }
    }
    return Status::success();
}

QString ReplayAccess::description() const
{
    switch (m_mode) {
    case Mode::OwnLogin:
        return QStringLiteral("replay user %1").arg(m_replay.user);
    case Mode::TemporaryUser:
        return QStringLiteral("temporary ACL user %1").arg(m_replay.user);
    case Mode::CheckedBeforeSending:
        return QStringLiteral("checked by Versus before sending (ACL SETUSER: %1)").arg(m_refusal);
    }
    return {};
}

Status ReplayAccess::release()
{
    if (!m_userExists)
        return Status::success();
    m_userExists = false;
    RedisConnection connection;
    if (Status connected = connectAs(connection, m_login); !connected)
        return Error{QStringLiteral("cannot delete the temporary ACL user %1: %2").arg(m_replay.user, connected.error())};
    const Outcome<Reply> reply = connection.command({"ACL", "DELUSER", m_replay.user.toStdString()});
    if (!reply)
        return Error{QStringLiteral("cannot delete the temporary ACL user %1: %2").arg(m_replay.user, reply.error())};
    if (reply->isError())
        return Error{QStringLiteral("%1: cannot delete the temporary ACL user %2: %3")
                         .arg(m_login.name, m_replay.user, QString::fromStdString(reply->text))};
    return Status::success();
}
