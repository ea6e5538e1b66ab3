#pragma once
// Building a source tree or release tarball in the window (Add source tree…): the build runs
// in a thread of its own (sourcebuilder.h), its steps and percentage reach this dialog as
// queued calls, Cancel ends make's process group, and a failure shows the step and the log's
// path. The dialog is modal, so no run starts while a build goes on.

#include "sourcebuilder.h"

#include <QDialog>
#include <atomic>
#include <memory>

class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QThread;

class SourceBuildDialog : public QDialog {
    Q_OBJECT
public:
    SourceBuildDialog(QString source, QString cacheDir, QWidget *parent = nullptr);
    ~SourceBuildDialog() override;

    // Starts the build; the dialog accepts when it succeeded, and stays open on failure.
    void start();
    // The built server's label once accepted.
    QString builtLabel() const { return m_built.label; }
    QString stepText() const;
    QString errorText() const { return m_error; }

    void reject() override;   // Cancel or Escape: cancels a running build first

private:
    void showProgress(const BuildProgress &progress);
    void finish(const Outcome<BuiltServer> &built);

    QString m_source;
    QString m_cacheDir;
    QLabel *m_step = nullptr;
    QLabel *m_detail = nullptr;
    QProgressBar *m_bar = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    BuiltServer m_built;
    QString m_error;
};
