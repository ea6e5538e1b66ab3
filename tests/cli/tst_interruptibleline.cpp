// The line --askpass reads: a line as typed, and Ctrl-C ending the wait however it arrives.
// A signal that comes before the read starts, or that the kernel hands to another thread, ended
// nothing when the reader waited for read() to return EINTR: the prompt then hung until killed
// (tst_endpoints ctrlCAtThePromptRestoresTheTerminal, once, on a loaded machine). Each case
// below gives a line late, so a reader that misses the signal returns that line, not a hang.

#include "interruptibleline.h"

#include <QFile>
#include <QTest>
#include <atomic>
#include <chrono>
#include <csignal>
#include <future>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace {

std::atomic<int> handledHere{0};
void countSignal(int) { handledHere.fetch_add(1); }

// The test's own SIGINT and SIGUSR1 handlers while it lives, so the signal the reader raises
// again after it is counted instead of ending the test; Qt Test's come back afterwards.
class CountingHandlers {
public:
    CountingHandlers()
    {
        handledHere.store(0);
        struct sigaction action {};
        action.sa_handler = countSignal;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &m_oldInt);
        sigaction(SIGUSR1, &action, &m_oldUsr1);
    }
    ~CountingHandlers()
    {
        sigaction(SIGINT, &m_oldInt, nullptr);
        sigaction(SIGUSR1, &m_oldUsr1, nullptr);
    }

private:
    struct sigaction m_oldInt {};
    struct sigaction m_oldUsr1 {};
};

// A pipe standing for the terminal: nothing is typed unless the test writes.
struct PipeTerminal {
    int ends[2] = {-1, -1};
    PipeTerminal() { QVERIFY(::pipe(ends) == 0); }
    ~PipeTerminal()
    {
        ::close(ends[0]);
        ::close(ends[1]);
    }
    int readEnd() const { return ends[0]; }
    int writeEnd() const { return ends[1]; }
};

// Types "late\n" unless the read has ended first: a reader that lost the signal returns
// "late" rather than waiting for ever.
class LateLine {
public:
    explicit LateLine(const PipeTerminal &terminal)
        : m_typist([ended = m_done.get_future(), typing = terminal.writeEnd()] {
              if (ended.wait_for(std::chrono::seconds(20)) == std::future_status::timeout) {
                  const char line[] = "late\n";
                  [[maybe_unused]] const ssize_t written = ::write(typing, line, sizeof line - 1);
              }
          })
    {
    }
    ~LateLine()
    {
        m_done.set_value();
        m_typist.join();
    }

private:
    std::promise<void> m_done;
    std::thread m_typist;
};

// Whether `thread` of this process is blocked in poll (7) or ppoll (271), as /proc says.
bool waitsInPoll(pid_t thread)
{
    QFile syscall(QStringLiteral("/proc/self/task/%1/syscall").arg(thread));
    if (!syscall.open(QIODevice::ReadOnly))
        return false;
    const QByteArray number = syscall.readAll().split(' ').value(0).trimmed();
    return number == "7" || number == "271";
}

QString lineText(const Outcome<QString> &line)
{
    return line ? QStringLiteral("line \"%1\"").arg(line.value()) : QStringLiteral("error \"%1\"").arg(line.error());
}

} // namespace

class TestInterruptibleLine : public QObject {
    Q_OBJECT
private slots:
    void aLineIsReadWithoutItsEnd_data()
    {
        QTest::addColumn<QByteArray>("typed");
        QTest::addColumn<QString>("read");
        QTest::newRow("line end") << QByteArray("s3cret\nnext\n") << QStringLiteral("line \"s3cret\"");
        QTest::newRow("carriage return and line end") << QByteArray("s3cret\r\n") << QStringLiteral("line \"s3cret\"");
        QTest::newRow("end of file") << QByteArray("s3cret") << QStringLiteral("line \"s3cret\"");
        QTest::newRow("nothing before the end of file") << QByteArray() << QStringLiteral("line \"\"");
        QTest::newRow("utf-8") << QByteArray("p\xc3\xa4ss\n") << QStringLiteral("line \"p\u00e4ss\"");
        QTest::newRow("eight bytes") << QByteArray("12345678\n") << QStringLiteral("line \"12345678\"");
        QTest::newRow("nine bytes") << QByteArray("123456789\n") << QStringLiteral("error \"the password is longer than 8 bytes\"");
    }
    void aLineIsReadWithoutItsEnd()
    {
        QFETCH(QByteArray, typed);
        QFETCH(QString, read);
        int ends[2];
        QVERIFY(::pipe(ends) == 0);
        QCOMPARE(::write(ends[1], typed.constData(), size_t(typed.size())), ssize_t(typed.size()));
        ::close(ends[1]);
        {
            InterruptibleLine reader;
            QCOMPARE(lineText(reader.readLine(ends[0], 8, QStringLiteral("the password"))), read);
            QCOMPARE(reader.caughtSignal(), 0);
        }
        ::close(ends[0]);
    }

    // Ctrl-C after the prompt was written and before the read began.
    void aSignalBeforeTheReadEndsIt()
    {
        CountingHandlers counting;
        PipeTerminal terminal;
        {
            InterruptibleLine reader;
            raise(SIGINT);   // handled before raise() returns: the reader's handler, not ours
            QCOMPARE(handledHere.load(), 0);
            LateLine late(terminal);
            QCOMPARE(lineText(reader.readLine(terminal.readEnd(), 4096, QStringLiteral("the password"))), QStringLiteral("error \"interrupted\""));
            QCOMPARE(reader.caughtSignal(), SIGINT);
        }
        QCOMPARE(handledHere.load(), 1);   // raised again for the handler that was there before
    }

    // Ctrl-C taken by another thread of the process: the reading thread sees no EINTR.
    void aSignalTakenByAnotherThreadEndsIt()
    {
        CountingHandlers counting;
        PipeTerminal terminal;
        sigset_t interrupt;
        sigemptyset(&interrupt);
        sigaddset(&interrupt, SIGINT);
        sigset_t before;
        QCOMPARE(pthread_sigmask(SIG_BLOCK, &interrupt, &before), 0);   // this thread never takes it
        std::promise<void> reading;
        std::thread sender([&interrupt, started = reading.get_future()]() mutable {
            pthread_sigmask(SIG_UNBLOCK, &interrupt, nullptr);
            started.wait();
            ::kill(::getpid(), SIGINT);   // to the process, as a terminal's Ctrl-C is
        });
        Outcome<QString> line = QString();
        int caught = 0;
        {
            InterruptibleLine reader;
            LateLine late(terminal);
            reading.set_value();
            line = reader.readLine(terminal.readEnd(), 4096, QStringLiteral("the password"));
            caught = reader.caughtSignal();
            sender.join();
        }
        QCOMPARE(handledHere.load(), 0);   // raised again, but blocked in this thread until now
        QCOMPARE(pthread_sigmask(SIG_SETMASK, &before, nullptr), 0);
        QCOMPARE(lineText(line), QStringLiteral("error \"interrupted\""));
        QCOMPARE(caught, SIGINT);
        QCOMPARE(handledHere.load(), 1);
    }

    // A signal the reader does not handle (a child ended, a user signal) comes while it waits,
    // and it reads on.
    void anotherSignalLetsItReadOn()
    {
        CountingHandlers counting;
        PipeTerminal terminal;
        const pthread_t readingThread = pthread_self();
        const pid_t readingTask = ::gettid();
        std::atomic<bool> sawItWait{false};
        InterruptibleLine reader;
        std::thread other([typing = terminal.writeEnd(), readingThread, readingTask, &sawItWait] {
            for (int i = 0; i < 2000 && !sawItWait; ++i) {
                sawItWait = waitsInPoll(readingTask);
                if (!sawItWait)
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            pthread_kill(readingThread, SIGUSR1);
            for (int i = 0; i < 2000 && handledHere.load() == 0; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            const char line[] = "typed after it\n";
            [[maybe_unused]] const ssize_t written = ::write(typing, line, sizeof line - 1);
        });
        const Outcome<QString> line = reader.readLine(terminal.readEnd(), 4096, QStringLiteral("the password"));
        other.join();
        QVERIFY2(sawItWait, "the reading thread was never seen waiting in poll");
        QCOMPARE(lineText(line), QStringLiteral("line \"typed after it\""));
        QCOMPARE(reader.caughtSignal(), 0);
        QCOMPARE(handledHere.load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestInterruptibleLine)
#include "tst_interruptibleline.moc"
