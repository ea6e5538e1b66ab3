#include "chunkedreader.h"

namespace {
const qint64 chunkSize = 1 << 20;
}

bool ChunkedReader::open(const QString &path)
{
    m_path = path;
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("%1: cannot read: %2").arg(path, m_file.errorString());
        return false;
    }
    return true;
}

bool ChunkedReader::readMore()
{
    if (m_eof)
        return false;
    // Drop what was consumed before growing, so the buffer stays near one chunk.
    if (m_position > 0) {
        m_consumedBefore += (long long)m_position;
        m_buffer.erase(0, m_position);
        m_position = 0;
    }
    const size_t old = m_buffer.size();
    m_buffer.resize(old + size_t(chunkSize));
    const qint64 got = m_file.read(m_buffer.data() + old, chunkSize);
    if (got < 0) {
        m_buffer.resize(old);
        m_error = QStringLiteral("%1: read failed: %2").arg(m_path, m_file.errorString());
        m_eof = true;
        return false;
    }
    m_buffer.resize(old + size_t(got));
    if (got == 0)
        m_eof = true;
    return got > 0;
}

bool ChunkedReader::ensure(size_t count)
{
    while (m_buffer.size() - m_position < count)
        if (!readMore())
            return false;
    return true;
}

long long ChunkedReader::skipWhiteSpace()
{
    const long long start = offset();
    while (ensure(1)) {
        const std::string_view bytes = buffered();
        size_t white = 0;
        while (white < bytes.size() && std::string_view(" \t\n\r\v\f").find(bytes[white]) != std::string_view::npos) {
            m_lineNumber += bytes[white] == '\n';
            ++white;
        }
        consume(white);
        if (white < bytes.size())
            break;
    }
    return offset() - start;
}

bool ChunkedReader::atEnd()
{
    return !ensure(1);
}

bool ChunkedReader::nextLine(std::string_view &line, size_t maxLength)
{
    size_t searchFrom = m_position;
    for (;;) {
        const size_t newline = m_buffer.find('\n', searchFrom);
        if (newline != std::string::npos) {
            size_t end = newline;
            if (end > m_position && m_buffer[end - 1] == '\r')
                --end;
            ++m_lineNumber;
            if (end - m_position > maxLength) {
                m_error = QStringLiteral("%1:%2: line longer than %3 bytes").arg(m_path).arg(m_lineNumber).arg(maxLength);
                return false;
            }
            line = std::string_view(m_buffer).substr(m_position, end - m_position);
            m_position = newline + 1;
            return true;
        }
        if (m_buffer.size() - m_position > maxLength + 2) {
            ++m_lineNumber;
            m_error = QStringLiteral("%1:%2: line longer than %3 bytes").arg(m_path).arg(m_lineNumber).arg(maxLength);
            return false;
        }
        const size_t scanned = m_buffer.size() - m_position;
        if (!readMore()) {
            if (!m_error.isEmpty())
                return false;
            if (m_position >= m_buffer.size())
                return false;
            // Last line without a newline.
            size_t end = m_buffer.size();
            if (end > m_position && m_buffer[end - 1] == '\r')
                --end;
            ++m_lineNumber;
            line = std::string_view(m_buffer).substr(m_position, end - m_position);
            m_position = m_buffer.size();
            return true;
        }
        searchFrom = m_position + scanned;
    }
}
