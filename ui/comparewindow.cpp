#include "comparewindow.h"

#include "bundlefiles.h"
#include "bundlemerge.h"
#include "chartdata.h"
#include "exportdialog.h"
#include "resultsview.h"
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QStyle>
#include <QVBoxLayout>

CompareWindow::CompareWindow(const ResultsBundle &a, const QString &nameA, const ResultsBundle &b,
                             const QString &nameB, QWidget *parent)
    : QWidget(parent, Qt::Window), m_merged(mergeBundles(a, nameA, b, nameB))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 vs %2").arg(nameA, nameB));
    placeOnScreen(parent);
    for (const QKeySequence &keys : {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)}) {
        auto *close = new QShortcut(keys, this);
        connect(close, &QShortcut::activated, this, &QWidget::close);
    }

    auto *heading = new QLabel(tr("Comparing <b>%1</b> (%2) with <b>%3</b> (%4)")
                                   .arg(nameA.toHtmlEscaped(), a.machine.cpuModel.toHtmlEscaped(),
                                        nameB.toHtmlEscaped(), b.machine.cpuModel.toHtmlEscaped()));
    heading->setWordWrap(true);
    auto *exportButton = new QPushButton(tr("Export chart…"));
    auto *saveButton = new QPushButton(tr("Save merged results…"));
    m_results = new ResultsView;
    m_results->setBundle(m_merged);
    m_results->flushCharts();

    connect(exportButton, &QPushButton::clicked, this, [this] {
        ExportDialog dialog(m_results->figures(), m_results->currentChartKind(), this);
        dialog.setViewTheme(m_results->theme());
        dialog.exec();
    });
    connect(saveButton, &QPushButton::clicked, this, [this] {
        const QString path = chooseBundleToSave(this, m_merged);
        if (path.isEmpty())
            return;
        Status saved = saveBundleFile(shownResults(m_results->figures()), path);
        if (!saved)
            QMessageBox::warning(this, tr("Cannot save results"), saved.error());
    });

    auto *top = new QHBoxLayout;
    top->addWidget(heading, 1);
    top->addWidget(saveButton);
    top->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addLayout(top);
    layout->addWidget(m_results, 1);
}

// Centred on the screen of the window it was opened from, and never larger than what that
// screen leaves free (a 1300×850 window would hang off a 1366×768 laptop).
void CompareWindow::placeOnScreen(QWidget *parent)
{
    QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
    const QSize wanted(1300, 850);
    if (!screen) {
        resize(wanted);
        return;
    }
    const QRect available = screen->availableGeometry();
    // Room for the window manager's frame around the client area.
    const QSize room = available.size() - QSize(24, 48);
    setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, wanted.boundedTo(room), available));
}

CompareWindow *CompareWindow::openFromFiles(QWidget *parent)
{
    const QString first = chooseBundleToOpen(parent, tr("Compare: first results"));
    if (first.isEmpty())
        return nullptr;
    const QString second = chooseBundleToOpen(parent, tr("Compare: second results"));
    if (second.isEmpty())
        return nullptr;
    Outcome<ResultsBundle> a = loadBundleFile(first);
    Outcome<ResultsBundle> b = a ? loadBundleFile(second) : Outcome<ResultsBundle>(Error{a.error()});
    if (!a || !b) {
        QMessageBox::warning(parent, tr("Cannot compare"), a ? b.error() : a.error());
        return nullptr;
    }
    return new CompareWindow(a.value(), QFileInfo(first).completeBaseName(), b.value(),
                             QFileInfo(second).completeBaseName(), parent);
}
