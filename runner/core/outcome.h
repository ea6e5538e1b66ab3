#pragma once
// Errors are values: every fallible call returns an Outcome carrying either
// a value or a message that names the file, line, server or command at fault.

#include <QString>
#include <optional>
#include <utility>

struct Error {
    QString message;
};

template <typename T>
class Outcome {
public:
    Outcome(T value) : m_value(std::move(value)) {}
    Outcome(Error error) : m_error(std::move(error.message)) {}

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }
    const QString &error() const { return m_error; }

private:
    std::optional<T> m_value;
    QString m_error;
};

// For calls that return nothing on success.
class Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error.message)), m_failed(true) {}
    static Status success() { return Status(); }
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const QString &error() const { return m_error; }

private:
    QString m_error;
    bool m_failed = false;
};
