#include "clusterredirects.h"

#include "clusterrouting.h"
#include "redisconnection.h"

#include <QThread>
#include <charconv>

namespace {

const std::string_view kAsking = "*1\r\n$6\r\nASKING\r\n";

bool parseNumber(std::string_view text, int &value)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

QString addressText(const Redirect &redirect)
{
    return QStringLiteral("%1:%2").arg(QString::fromStdString(redirect.host)).arg(redirect.port);
}

} // namespace

bool parseRedirect(const std::string &reply, Redirect &redirect)
{
    std::string_view text = reply;
    if (text.rfind("MOVED ", 0) == 0) {
        redirect.ask = false;
        text.remove_prefix(6);
    } else if (text.rfind("ASK ", 0) == 0) {
        redirect.ask = true;
        text.remove_prefix(4);
    } else {
        return false;
    }
    const size_t space = text.find(' ');
    // The address is host:port; an IPv6 host has colons of its own, the port follows the last.
    const size_t colon = text.rfind(':');
    if (space == std::string_view::npos || colon == std::string_view::npos || colon < space)
        return false;
    if (!parseNumber(text.substr(0, space), redirect.slot) || !parseNumber(text.substr(colon + 1), redirect.port))
        return false;
    redirect.host = std::string(text.substr(space + 1, colon - space - 1));
    return !redirect.host.empty();
}

ClusterRedirects::ClusterRedirects(ClusterRouting &routing, std::vector<NodeEndpoint> nodes)
    : m_routing(routing), m_nodes(std::move(nodes))
{
}

int ClusterRedirects::targetOf(const Redirect &redirect, size_t from)
{
    // "?": the node's endpoint is unknown to the cluster; it is reached as the node that replied.
    const std::string &host = redirect.host == "?" ? m_nodes[from].host : redirect.host;
    for (size_t node = 0; node < m_nodes.size(); ++node) {
        const NodeEndpoint &candidate = m_nodes[node];
        if (candidate.port == redirect.port && (candidate.host == host || (!candidate.announced.empty() && candidate.announced == host)))
            return int(node);
    }
    if (m_unknownTarget.isEmpty())
        m_unknownTarget = addressText(redirect);
    return -1;
}

bool ClusterRedirects::take(size_t node, std::uint32_t name, std::string_view bytes, const std::string &reply, bool asking)
{
    // A multi-key command whose keys are split by a slot's migration: asked again, alike, a little later.
    if (reply.rfind("TRYAGAIN", 0) == 0) {
        ++m_retried;
        m_pending.push_back(Pending{node, asking, name, std::string(bytes), QString::fromStdString(reply)});
        m_waitBeforeNext = true;
        return true;
    }
    Redirect redirect;
    if (!parseRedirect(reply, redirect))
        return false;
    const int target = targetOf(redirect, node);
    if (redirect.ask)
        ++m_asked;
    else
        ++m_moved;
    if (target < 0)
        return true;   // follow() fails, naming the node
    if (!redirect.ask)
        m_routing.moveSlot(redirect.slot, target);
    m_pending.push_back(Pending{size_t(target), redirect.ask, name, std::string(bytes), QString::fromStdString(reply)});
    return true;
}

Status ClusterRedirects::follow(const std::vector<RedisConnection *> &connections, const std::vector<std::string> &names,
                                const ErrorSink &otherError)
{
    for (int hop = 1; !m_pending.empty() || !m_unknownTarget.isEmpty(); ++hop) {
        if (!m_unknownTarget.isEmpty())
            return Error{QStringLiteral("the cluster redirected a command to %1, a node that was not one of its primaries "
                                        "when the pass began: a cluster whose nodes change during a run cannot be measured")
                             .arg(m_unknownTarget)};
        if (hop > kMostHops)
            return Error{QStringLiteral("%1 was redirected %2 times in a row, the last time by '%3': the cluster's slot map "
                                        "does not settle")
                             .arg(QString::fromStdString(names[m_pending.front().name]))
                             .arg(kMostHops)
                             .arg(m_pending.front().reply)};
        if (m_waitBeforeNext)
            QThread::msleep(kRetryWaitMs);
        m_waitBeforeNext = false;
        std::vector<Pending> round;
        round.swap(m_pending);
        for (size_t target = 0; target < connections.size(); ++target) {
            if (Status followed = followTo(target, round, *connections[target], names, otherError); !followed)
                return followed;
        }
    }
    return Status::success();
}

Status ClusterRedirects::followTo(size_t target, const std::vector<Pending> &round, RedisConnection &connection,
                                  const std::vector<std::string> &names, const ErrorSink &otherError)
{
    std::string request;
    std::vector<const Pending *> replyOf;   // per reply: its command, null for an ASKING
    for (const Pending &pending : round) {
        if (pending.target != target)
            continue;
        if (pending.ask) {
            request += kAsking;
            replyOf.push_back(nullptr);
            ++m_askingSent;
        }
        request += pending.bytes;
        replyOf.push_back(&pending);
    }
    if (replyOf.empty())
        return Status::success();
    if (Status exchanged = connection.exchange(request, replyOf.size()); !exchanged)
        return exchanged;
    const ReplyScanner &replies = connection.lastReplies();
    for (size_t i = 0; i < replies.errorCount(); ++i) {
        const ReplyScanner::ErrorReply &reply = replies.error(i);
        const Pending *command = replyOf[reply.index];
        if (!command) {
            otherError("ASKING", reply.text);
            continue;
        }
        if (!take(target, command->name, command->bytes, reply.text, command->ask))
            otherError(names[command->name], reply.text);
    }
    return Status::success();
}
