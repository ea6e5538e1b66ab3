// The question before a run flushes a server Versus did not launch, answered from the keyboard.
// Esc answered it with "Cancel run": in a full-screen demo, where Esc is documented as "leave
// full screen, never cancels", the presenter's run ended before it began.
#include "flushconsent.h"

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QtTest>

class FlushQuestionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void escapeNeitherFlushesNorCancels();
};

void FlushQuestionTest::escapeNeitherFlushesNorCancels()
{
    EndpointSize size;
    size.label = QStringLiteral("mine");
    size.where = QStringLiteral("127.0.0.1:6380");
    size.keys = 2;
    size.holds = QStringLiteral("db0: 2 keys");

    QStringList buttons;
    QTimer pressEscape;
    pressEscape.setInterval(20);
    connect(&pressEscape, &QTimer::timeout, this, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || !box->isVisible())
            return;
        pressEscape.stop();
        for (QAbstractButton *button : box->buttons())
            buttons << button->text();
        QTest::keyClick(box, Qt::Key_Escape);
    });
    pressEscape.start();
    const FlushDecision decision = askFlushConsent(nullptr, {size}, false);
    buttons.sort();
    QCOMPARE(buttons, (QStringList{QStringLiteral("Cancel run"), QStringLiteral("Delete their data and run"),
                                   QStringLiteral("Don't flush them")}));
    QCOMPARE(int(decision), int(FlushDecision::Refuse));
}

QTEST_MAIN(FlushQuestionTest)
#include "tst_flushquestion.moc"
