#pragma once
// Reads a file (or a ":/…" Qt resource) in chunks: line by line or as raw bytes, without
// ever holding the whole file. Lines longer than a limit are an error, not an allocation.

#include <QFile>
#include <QString>
#include <string>
#include <string_view>

class ChunkedReader {
public:
    ChunkedReader() = default;
    // False with error() set when the file cannot be opened.
    bool open(const QString &path);
    const QString &error() const { return m_error; }
    const QString &path() const { return m_path; }

    // Next line without its "\n" or "\r\n". Returns false at the end or on error (then
    // error() is set). The view stays valid until the next call.
    bool nextLine(std::string_view &line, size_t maxLength);
    long long lineNumber() const { return m_lineNumber; }

    // Skips spaces, tabs, line breaks, vertical tabs and form feeds, however many, a chunk at a
    // time (the buffer stays near one chunk), counting the lines they end. Returns the bytes
    // skipped; stops at the first other byte, at the end, or on a read error (error() set).
    long long skipWhiteSpace();

    // Raw access for binary formats: bytes buffered and not consumed yet.
    std::string_view buffered() const { return std::string_view(m_buffer).substr(m_position); }
    // Reads more so that at least `count` bytes are buffered; false at the end of the file.
    bool ensure(size_t count);
    void consume(size_t count) { m_position += count; }
    bool atEnd();
    // Bytes consumed so far, for error messages on binary formats.
    long long offset() const { return m_consumedBefore + (long long)m_position; }

private:
    bool readMore();

    QFile m_file;
    QString m_path;
    QString m_error;
    std::string m_buffer;
    size_t m_position = 0;
    long long m_consumedBefore = 0;
    long long m_lineNumber = 0;
    bool m_eof = false;
};
