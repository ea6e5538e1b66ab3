// The progress rows' server names in a narrow window with demo mode's large text: the name
// column was held at 110 px whatever the font, so "Valkey 9.1.2" showed as "Valkey 9.1.:" (its
// last digit cut in half) once the window was not wide enough to give every column its size.
// And a long error in a row: it made the demo's window 2,568 px wide on a 1,920 px screen.
#include "progresslist.h"

#include <QApplication>
#include <QFontMetrics>
#include <QLabel>
#include <QtTest>

class ProgressNamesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesAreNeverCut();
    void longErrorsWrapInsteadOfWideningTheWindow();
};

void ProgressNamesTest::namesAreNeverCut()
{
    const QFont before = QApplication::font();
    QFont large = before;
    large.setPointSize(22);
    QApplication::setFont(large);
    const QStringList names = {QStringLiteral("Valkey 8.0.1"), QStringLiteral("Valkey 9.1.2")};
    {
        ProgressList list;
        list.setServers({QStringLiteral("a"), QStringLiteral("b")}, names);
        list.resize(300, 200);   // narrower than the rows need: each column gets only its minimum
        list.show();
        QVERIFY(QTest::qWaitForWindowExposed(&list));
        for (const QString &name : names) {
            QLabel *label = nullptr;
            for (QLabel *candidate : list.findChildren<QLabel *>()) {
                if (candidate->text() == name)
                    label = candidate;
            }
            QVERIFY2(label, qPrintable(name));
            const int needed = QFontMetrics(label->font()).horizontalAdvance(name);
            QVERIFY2(label->contentsRect().width() >= needed,
                     qPrintable(QStringLiteral("%1: %2 px shown of %3").arg(name).arg(label->contentsRect().width()).arg(needed)));
        }
    }
    QApplication::setFont(before);
}

void ProgressNamesTest::longErrorsWrapInsteadOfWideningTheWindow()
{
    auto widthWith = [](const QString &message) {
        ProgressList list;
        list.setServers({QStringLiteral("a")}, {QStringLiteral("127.0.0.1:6380")});
        ServerProgress progress;
        progress.serverId = QStringLiteral("a");
        progress.state = ProgressState::Failed;
        progress.message = message;
        list.showProgress(progress);
        return list.sizeHint().width();
    };
    QString longError = QStringLiteral("127.0.0.1:6380: ");
    while (longError.size() < 400)
        longError += QStringLiteral("Connection reset by peer while reading the reply to INFO ");
    const int shortWidth = widthWith(QStringLiteral("failed"));
    const int longWidth = widthWith(longError);
    QVERIFY2(longWidth == shortWidth, qPrintable(QStringLiteral("%1 px with the long error, %2 px without").arg(longWidth).arg(shortWidth)));
}

QTEST_MAIN(ProgressNamesTest)
#include "tst_progressnames.moc"
