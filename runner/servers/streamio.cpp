#include "streamio.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>

bool socketWouldBlock(int error)
{
    return error == EAGAIN || error == EWOULDBLOCK || error == EINTR;
}

namespace {

class PlainIo final : public StreamIo {
public:
    explicit PlainIo(int fd) : StreamIo(fd) {}

    Moved read(char *buffer, size_t length) override
    {
        const ssize_t got = ::recv(m_fd, buffer, length, MSG_DONTWAIT);
        if (got > 0)
            return {Result::Done, size_t(got)};
        if (got == 0) {
            m_reason = QStringLiteral("Server closed the connection");
            return {Result::Closed, 0};
        }
        return failedOr(POLLIN);
    }

    Moved write(const char *data, size_t length) override
    {
        const ssize_t sent = ::send(m_fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0)
            return {Result::Done, size_t(sent)};
        return failedOr(POLLOUT);
    }

private:
    Moved failedOr(short events)
    {
        const int error = errno;
        if (socketWouldBlock(error)) {
            m_waitEvents = events;
            return {Result::WouldBlock, 0};
        }
        m_reason = QString::fromLocal8Bit(std::strerror(error));
        return {error == ECONNRESET || error == EPIPE ? Result::Closed : Result::Failed, 0};
    }
};

} // namespace

std::unique_ptr<StreamIo> plainStreamIo(int fd)
{
    return std::make_unique<PlainIo>(fd);
}

short waitForIo(const StreamIo &io, short events, std::chrono::steady_clock::time_point deadline)
{
    using Clock = std::chrono::steady_clock;
    if ((events & POLLIN) && io.hasBuffered())
        return POLLIN;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return 0;
        pollfd entry{io.fd(), events, 0};
        const int ready = ::poll(&entry, 1, int(std::min<long long>(left, 1000 * 1000)));
        if (ready > 0)
            return entry.revents;
        if (ready < 0 && errno != EINTR)
            return POLLERR;   // the next read or write says what went wrong
    }
}
