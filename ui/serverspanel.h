#pragma once
// The servers to compare: every discovered version with a checkbox, its product, version,
// where it comes from and its state during a run. Adding a binary or an endpoint happens
// here; a rejection is shown inline under the list, never as a dialog.

#include "endpointdialog.h"
#include "servercatalog.h"
#include "runrequest.h"
#include <QWidget>
#include <map>
#include <vector>

class BackgroundTasks;
class CacheWatcher;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

class ServersPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServersPanel(QWidget *parent = nullptr);
    ~ServersPanel() override;

    // Discovers the cache, PATH and the binaries added in earlier sessions, off the GUI thread.
    // Again on its own when the server cache changes (a build added while the window is open).
    void discover();
    bool isDiscovering() const { return m_discovering; }
    // A demo or an autorun: launched servers only (an endpoint remembered from an earlier session
    // starts unticked) and nothing ticked is remembered. Call before discover().
    void startFromDefaults();

    std::vector<ServerSpec> selectedServers() const;
    QStringList labels() const;
    bool setChecked(const QString &label, bool checked);
    // Adds a binary or an endpoint as if the user had picked it (also used by the dialogs).
    void addBinary(const QString &path);
    // Builds a source tree or release tarball (a modal dialog with progress and Cancel), then
    // lists the build from the cache, checked. False when it failed or was cancelled.
    bool buildSource(const QString &path);
    // Empty or the error. TLS and the login (`access`: the ACL user, and whether the other
    // primaries of its cluster may be sent it), like the password, are kept for this session only.
    QString addEndpoint(const QString &hostPort, const QString &password, const TlsSettings &tls = {},
                        const EndpointAccess &access = {});
    QString stateText(const QString &label) const;
    QString inlineMessage() const;

    void resetStates();
    void showProgress(const ServerProgress &progress);
    void setLocked(bool locked);          // no selection changes while a run goes on
    void setPathsHidden(bool hidden);     // demo mode: no hostnames or paths on screen

Q_SIGNALS:
    void discovered();
    void selectionChanged();

private:
    void listDiscovered(const std::vector<CatalogEntry> &entries, const QStringList &defaultLabels);
    QStringList selectionToRestore(const QStringList &defaultLabels) const;
    QStringList checkedLabels() const;
    void addEntry(const CatalogEntry &entry, bool checked);
    void nameRows();
    void fitListHeight();
    void chooseBinary();
    void chooseSourceTree();
    void askEndpoint();
    void removeSelected();
    bool isRemovable(const QTreeWidgetItem *item) const;
    void updateRemoveButton();
    void showMessage(const QString &text, bool error);
    void saveSelection() const;
    QString sourceText(const ServerSpec &spec) const;
    QTreeWidgetItem *itemFor(const QString &label) const;

    QTreeWidget *m_list = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_addBinary = nullptr;
    QPushButton *m_addSource = nullptr;
    QPushButton *m_addEndpoint = nullptr;
    QPushButton *m_remove = nullptr;
    BackgroundTasks *m_tasks = nullptr;
    std::map<QString, CatalogEntry> m_entries;
    bool m_discovering = false;
    bool m_pathsHidden = false;
    bool m_restoring = false;
    bool m_remembersSelection = true;
    bool m_listedOnce = false;
    bool m_discoverAgain = false;        // the cache changed while it was being read
    bool m_discoverWhenUnlocked = false; // the cache changed during a run
    CacheWatcher *m_cacheWatcher = nullptr;
};
