#include "sourcebuilddialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

SourceBuildDialog::SourceBuildDialog(QString source, QString cacheDir, QWidget *parent)
    : QDialog(parent)
    , m_source(std::move(source))
    , m_cacheDir(std::move(cacheDir))
{
    setObjectName(QStringLiteral("sourceBuildDialog"));
    setWindowTitle(tr("Building %1").arg(QFileInfo(m_source).fileName()));
    setModal(true);
    m_step = new QLabel(tr("Starting…"));
    m_step->setObjectName(QStringLiteral("buildStep"));
    m_detail = new QLabel;
    m_detail->setObjectName(QStringLiteral("buildDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bar = new QProgressBar;
    m_bar->setRange(0, 100);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SourceBuildDialog::reject);

    auto *note = new QLabel(tr("Built as upstream builds a release: the server's own Makefile, its bundled "
                               "jemalloc, TLS on. The same source is built once; a changed file builds again."));
    note->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(m_step);
    layout->addWidget(m_bar);
    layout->addWidget(m_detail);
    layout->addWidget(m_buttons);
    resize(520, sizeHint().height());
}

SourceBuildDialog::~SourceBuildDialog()
{
    if (m_thread) {
        m_cancel->store(true);
        m_thread->wait();
    }
}

QString SourceBuildDialog::stepText() const
{
    return m_step->text();
}

void SourceBuildDialog::start()
{
    const QPointer<SourceBuildDialog> dialog(this);
    const QString source = m_source;
    const QString cacheDir = m_cacheDir;
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    m_thread = QThread::create([dialog, source, cacheDir, cancel] {
        SourceBuilder builder(cacheDir);
        builder.setCancelled([cancel] { return cancel->load(); });
        builder.setProgress([dialog](const BuildProgress &progress) {
            QMetaObject::invokeMethod(dialog, [dialog, progress] {
                if (dialog)
                    dialog->showProgress(progress);
            }, Qt::QueuedConnection);
        });
        const Outcome<BuiltServer> built = builder.build(source);
        QMetaObject::invokeMethod(dialog, [dialog, built] {
            if (dialog)
                dialog->finish(built);
        }, Qt::QueuedConnection);
    });
    m_thread->start();
}

void SourceBuildDialog::showProgress(const BuildProgress &progress)
{
    m_step->setText(tr("Step: %1").arg(progress.step));
    if (progress.percent >= 0)
        m_bar->setValue(progress.percent);
    m_detail->setText(progress.detail);
}

void SourceBuildDialog::finish(const Outcome<BuiltServer> &built)
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    if (m_cancel->load()) {
        QDialog::reject();
        return;
    }
    if (built) {
        m_built = built.value();
        m_bar->setValue(100);
        accept();
        return;
    }
    m_error = built.error();
    m_step->setText(tr("The build failed"));
    m_detail->setText(m_error);
    m_buttons->setStandardButtons(QDialogButtonBox::Close);
}

void SourceBuildDialog::reject()
{
    if (m_thread) {
        // The thread ends make and reports back; finish() closes the dialog then.
        m_cancel->store(true);
        m_step->setText(tr("Cancelling…"));
        m_buttons->setEnabled(false);
        return;
    }
    QDialog::reject();
}
