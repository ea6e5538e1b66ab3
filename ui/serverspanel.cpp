#include "serverspanel.h"

#include "backgroundtasks.h"
#include "endpointdialog.h"
#include "sourcebuilddialog.h"
#include "hostport.h"
#include "presentation.h"
#include "provenance.h"
#include "runcontroller.h"
#include "serverdiscovery.h"
#include "uisettings.h"
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace {

enum Column { NameColumn, SourceColumn, StateColumn };
constexpr int LabelRole = Qt::UserRole + 1;

const QColor kIdleColour(0x75, 0x75, 0x75);

QColor stateColour(ProgressState state)
{
    if (state == ProgressState::Failed)
        return QColor(0xc6, 0x28, 0x28);
    if (state == ProgressState::Done)
        return QColor(0x2e, 0x7d, 0x32);
    if (state == ProgressState::Cancelled)
        return kIdleColour;
    return QColor(0x15, 0x65, 0xc0);
}

// As every view of the results names it (a source tree by its branch and revision); an
// endpoint without its address, which the Source column shows unless paths are hidden.
QString displayName(const ServerSpec &spec)
{
    if (spec.isEndpoint && spec.identity.version.isEmpty())
        return QStringLiteral("Endpoint");
    if (spec.isEndpoint)
        return spec.identity.displayName();
    return serverDisplayName(placeholderRun(spec));
}

// An endpoint's TLS choices from an earlier session, named as the dialog names its fields.
TlsSettings rememberedTls(const QString &hostPort)
{
    TlsSettings tls = UiSettings::endpointTls(hostPort);
    tls.names = endpointDialogTlsNames();
    return tls;
}

} // namespace

ServersPanel::ServersPanel(QWidget *parent) : QWidget(parent), m_tasks(new BackgroundTasks(this))
{
    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("serverList"));
    m_list->setHeaderLabels({tr("Server"), tr("Source"), tr("State")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->header()->setStretchLastSection(true);
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(SourceColumn, QHeaderView::ResizeToContents);
    m_list->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Names and states must be readable at a glance; a sideways scroll bar hides rows instead.
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideMiddle);
    connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *, int column) {
        if (column == NameColumn && !m_restoring) {
            saveSelection();
            Q_EMIT selectionChanged();
        }
    });
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ServersPanel::updateRemoveButton);

    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("serverMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    m_addBinary = new QPushButton(tr("Add binary…"));
    m_addBinary->setToolTip(tr("Add a valkey-server or redis-server binary; it is identified by --version"));
    m_addSource = new QPushButton(tr("Add source tree…"));
    m_addSource->setObjectName(QStringLiteral("addSourceTree"));
    m_addSource->setToolTip(tr("Build a Valkey or Redis source tree as upstream builds a release (its own Makefile "
                               "and jemalloc), so a branch compares like with like against an upstream build"));
    m_addEndpoint = new QPushButton(tr("Add endpoint…"));
    m_addEndpoint->setObjectName(QStringLiteral("addEndpoint"));
    m_addEndpoint->setToolTip(tr("Add a running server that Versus does not launch (host:port)"));
    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("removeServer"));
    m_remove->setToolTip(tr("Remove a binary or an endpoint you added; the servers found in the cache or on PATH "
                            "stay listed"));
    m_remove->setEnabled(false);
    connect(m_addBinary, &QPushButton::clicked, this, &ServersPanel::chooseBinary);
    connect(m_addSource, &QPushButton::clicked, this, &ServersPanel::chooseSourceTree);
    connect(m_addEndpoint, &QPushButton::clicked, this, &ServersPanel::askEndpoint);
    connect(m_remove, &QPushButton::clicked, this, &ServersPanel::removeSelected);

    // Two rows: four buttons in one are wider than the side panel.
    auto *buttons = new QGridLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_addBinary, 0, 0);
    buttons->addWidget(m_addSource, 0, 1);
    buttons->addWidget(m_addEndpoint, 1, 0);
    buttons->addWidget(m_remove, 1, 2);
    buttons->setColumnStretch(2, 1);

    // Builds that scripts/fetch-servers, a source build or `versus build` add to the cache while
    // the window is open are listed without a restart.
    m_cacheWatcher = new CacheWatcher(ServerCatalog::defaultCacheDir(), this);
    connect(m_cacheWatcher, &CacheWatcher::settled, this, [this] {
        if (m_list->isEnabled())
            discover();
        else
            m_discoverWhenUnlocked = true;   // a run's states stay until it ends
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    layout->addWidget(m_message);
    layout->addLayout(buttons);
}

ServersPanel::~ServersPanel() = default;

void ServersPanel::discover()
{
    // A build that lands in the cache while the list is read is listed by one more reading.
    if (m_discovering) {
        m_discoverAgain = true;
        return;
    }
    m_discovering = true;
    m_cacheWatcher->watchFolders();
    showMessage(tr("Looking for servers…"), false);
    const QStringList binaries = UiSettings::userBinaries();
    m_tasks->run<ServerDiscovery>([binaries] { return discoverServers(binaries); },
                                  [this](const ServerDiscovery &found) { listDiscovered(found.entries, found.defaultLabels); });
}

// The selection a discovery lists with: the remembered one (else the catalog's default); once
// the list is shown, or where nothing is remembered (a demo), the rows ticked now.
QStringList ServersPanel::selectionToRestore(const QStringList &defaultLabels) const
{
    if (m_listedOnce && !m_remembersSelection)
        return checkedLabels();
    QStringList selected = UiSettings::hasServerSelection() ? UiSettings::selectedServers() : defaultLabels;
    if (m_remembersSelection)
        return selected;
    // A demo or an autorun runs launched servers: an endpoint remembered from an earlier
    // session would stop it on the flush question. Ticking one in the panels still runs it.
    for (const QString &hostPort : UiSettings::endpoints())
        selected.removeAll(hostPort);
    return selected.isEmpty() ? defaultLabels : selected;
}

void ServersPanel::listDiscovered(const std::vector<CatalogEntry> &entries, const QStringList &defaultLabels)
{
    m_discovering = false;
    const QStringList selected = selectionToRestore(defaultLabels);
    // Endpoints keep what this session gave them (password, user) when the list is read again.
    std::map<QString, ServerSpec> sessionEndpoints;
    for (const auto &[label, entry] : m_entries) {
        if (entry.spec.isEndpoint)
            sessionEndpoints[hostPortText(entry.spec.host, entry.spec.port)] = entry.spec;
    }
    m_restoring = true;
    m_list->clear();
    m_entries.clear();
    for (const CatalogEntry &entry : entries)
        addEntry(entry, selected.contains(entry.spec.label));
    for (const QString &hostPort : UiSettings::endpoints()) {
        Outcome<ServerSpec> endpoint = ServerCatalog::parseEndpoint(hostPort);
        if (!endpoint)
            continue;
        ServerSpec spec = endpoint.value();
        const QString key = hostPortText(spec.host, spec.port);
        if (sessionEndpoints.count(key))
            spec = sessionEndpoints[key];
        else
            spec.tls = rememberedTls(key);
        addEntry(CatalogEntry::forSpec(spec), selected.contains(spec.label));
    }
    nameRows();
    m_restoring = false;
    m_listedOnce = true;
    int unusable = 0;
    for (const CatalogEntry &entry : entries)
        unusable += entry.usable() ? 0 : 1;
    if (m_entries.empty())
        showMessage(tr("No servers found. Run scripts/fetch-servers, or add a binary."), true);
    else if (unusable > 0)
        showMessage(tr("%n server(s) cannot be used; hover over them to see why.", nullptr, unusable), true);
    else
        showMessage(QString(), false);
    Q_EMIT discovered();
    Q_EMIT selectionChanged();
    if (m_discoverAgain) {
        m_discoverAgain = false;
        discover();
    }
}

void ServersPanel::startFromDefaults()
{
    m_remembersSelection = false;
}

QStringList ServersPanel::checkedLabels() const
{
    QStringList checked;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(NameColumn) == Qt::Checked)
            checked << item->data(NameColumn, LabelRole).toString();
    }
    return checked;
}

// Each row as the results will name it beside the others listed: a Debian package beside an
// upstream build of its version says so, two trees of one name add their content hash. With
// the Source column hidden (demo mode) no two rows read alike.
void ServersPanel::nameRows()
{
    ResultsBundle listed;
    for (const auto &[label, entry] : m_entries) {
        if (entry.usable() && !entry.spec.isEndpoint)
            listed.servers.push_back(placeholderRun(entry.spec));
    }
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        const auto it = m_entries.find(item->data(NameColumn, LabelRole).toString());
        if (it == m_entries.end() || !it->second.usable())
            continue;
        const ServerSpec &spec = it->second.spec;
        item->setText(NameColumn, spec.isEndpoint ? displayName(spec) : serverDisplayName(listed, placeholderRun(spec)));
    }
}

void ServersPanel::addEntry(const CatalogEntry &entry, bool checked)
{
    CatalogEntry unique = entry;
    // Two binaries of the same version (cache and PATH) must stay apart in charts and bundles.
    for (int n = 2; m_entries.count(unique.spec.label); ++n)
        unique.spec.label = entry.spec.label + QStringLiteral("-%1").arg(n);
    const QString label = unique.spec.label;
    m_entries[label] = unique;

    auto *item = new QTreeWidgetItem;
    item->setData(NameColumn, LabelRole, label);
    item->setText(NameColumn, unique.usable() ? displayName(unique.spec) : label);
    item->setText(SourceColumn, sourceText(unique.spec));
    if (unique.usable()) {
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(NameColumn, checked ? Qt::Checked : Qt::Unchecked);
        item->setText(StateColumn, tr("idle"));
        item->setForeground(StateColumn, kIdleColour);
    } else {
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        item->setText(StateColumn, tr("unusable"));
        item->setForeground(StateColumn, stateColour(ProgressState::Failed));
        item->setToolTip(StateColumn, unique.problem);
    }
    const QString where = unique.spec.isEndpoint ? hostPortText(unique.spec.host, unique.spec.port)
                                                 : unique.spec.binaryPath;
    // The origin (Debian package and suite, upstream build) is the catalog's; the quantum is
    // known only once the server has run.
    QStringList tip{label};
    if (const QString origin = buildOriginSummary(unique.spec.origin); !origin.isEmpty())
        tip << origin;
    if (!m_pathsHidden)
        tip << where;
    item->setToolTip(NameColumn, tip.join(QLatin1Char('\n')));
    m_list->addTopLevelItem(item);
    nameRows();
    fitListHeight();
}

void ServersPanel::fitListHeight()
{
    // As tall as its rows (up to a dozen), so the sidebar has no empty box in it.
    const int rows = std::max(3, std::min(12, m_list->topLevelItemCount()));
    const int rowHeight = m_list->topLevelItemCount() > 0 ? m_list->sizeHintForRow(0) : m_list->fontMetrics().height() + 6;
    m_list->setFixedHeight(m_list->header()->sizeHint().height() + rows * std::max(rowHeight, 1) + 2 * m_list->frameWidth() + 4);
}

QString ServersPanel::sourceText(const ServerSpec &spec) const
{
    if (spec.isEndpoint)   // how it is reached, TLS after a restart too
        return (m_pathsHidden ? tr("endpoint") : hostPortText(spec.host, spec.port)) + (spec.tls.enabled ? tr(" over TLS") : QString());
    if (spec.source == ServerSource::Cache && spec.origin.isSourceTree())
        return tr("source tree");
    if (spec.source == ServerSource::Cache && spec.origin.kind == BuildKind::UpstreamBuild)
        return tr("upstream build");
    if (spec.source == ServerSource::Cache)
        return spec.origin.suite.isEmpty() ? tr("cache") : spec.origin.suite;
    if (spec.source == ServerSource::User)
        return m_pathsHidden ? tr("added") : QFileInfo(spec.binaryPath).fileName();
    return serverSourceName(spec.source);
}

QTreeWidgetItem *ServersPanel::itemFor(const QString &label) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(NameColumn, LabelRole).toString() == label)
            return item;
    }
    return nullptr;
}

std::vector<ServerSpec> ServersPanel::selectedServers() const
{
    std::vector<ServerSpec> specs;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(NameColumn) != Qt::Checked)
            continue;
        auto it = m_entries.find(item->data(NameColumn, LabelRole).toString());
        if (it != m_entries.end() && it->second.usable())
            specs.push_back(it->second.spec);
    }
    return specs;
}

QStringList ServersPanel::labels() const
{
    QStringList result;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        result << m_list->topLevelItem(i)->data(NameColumn, LabelRole).toString();
    return result;
}

bool ServersPanel::setChecked(const QString &label, bool checked)
{
    QTreeWidgetItem *item = itemFor(label);
    if (!item || !(item->flags() & Qt::ItemIsUserCheckable))
        return false;
    item->setCheckState(NameColumn, checked ? Qt::Checked : Qt::Unchecked);
    return true;
}

void ServersPanel::saveSelection() const
{
    // Nothing chosen in a demo or an autorun is remembered (docs/WINDOW.md).
    if (m_remembersSelection)
        UiSettings::setSelectedServers(checkedLabels());
}

void ServersPanel::chooseBinary()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Add a server binary"),
                                                      UiSettings::lastDirectory(QStringLiteral("binary")));
    if (path.isEmpty())
        return;
    UiSettings::setLastDirectory(QStringLiteral("binary"), QFileInfo(path).absolutePath());
    addBinary(path);
}

void ServersPanel::chooseSourceTree()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Add a source tree"),
                                                           UiSettings::lastDirectory(QStringLiteral("source")));
    if (path.isEmpty())
        return;
    UiSettings::setLastDirectory(QStringLiteral("source"), path);
    buildSource(path);
}

bool ServersPanel::buildSource(const QString &path)
{
    SourceBuildDialog dialog(path, ServerCatalog::defaultCacheDir(), this);
    dialog.start();
    if (dialog.exec() != QDialog::Accepted) {
        showMessage(dialog.errorText().isEmpty() ? tr("Build of %1 cancelled.").arg(path)
                                                 : tr("Not added: %1").arg(dialog.errorText()),
                    !dialog.errorText().isEmpty());
        return false;
    }
    // The build is a cache folder now: listed (and checked) like every other one, and selected.
    const QString label = dialog.builtLabel();
    QStringList selected;
    for (const ServerSpec &spec : selectedServers())
        selected << spec.label;
    if (!selected.contains(label))
        UiSettings::setSelectedServers(selected << label);
    discover();
    return true;
}

void ServersPanel::addBinary(const QString &path)
{
    showMessage(tr("Identifying %1…").arg(QFileInfo(path).fileName()), false);
    m_addBinary->setEnabled(false);
    m_tasks->run<Outcome<ServerSpec>>([path] {
        ServerCatalog catalog;
        return catalog.addBinary(path);
    }, [this, path](const Outcome<ServerSpec> &added) {
        m_addBinary->setEnabled(m_list->isEnabled());
        if (!added) {
            showMessage(tr("Not added: %1").arg(added.error()), true);
            return;
        }
        ServerSpec spec = added.value();
        spec.source = ServerSource::User;
        addEntry(CatalogEntry::forSpec(spec), true);
        QStringList binaries = UiSettings::userBinaries();
        if (!binaries.contains(path))
            UiSettings::setUserBinaries(binaries << path);
        saveSelection();
        showMessage(tr("Added %1.").arg(displayName(spec)), false);
        Q_EMIT selectionChanged();
    });
}

void ServersPanel::askEndpoint()
{
    EndpointDialog dialog(this);
    while (dialog.exec() == QDialog::Accepted) {
        const QString error = addEndpoint(dialog.hostPort(), dialog.password(), dialog.tls(), dialog.access());
        if (error.isEmpty())
            return;
        dialog.setError(error);
    }
}

QString ServersPanel::addEndpoint(const QString &hostPort, const QString &password, const TlsSettings &tls,
                                  const EndpointAccess &access)
{
    Outcome<ServerSpec> endpoint = ServerCatalog::parseEndpoint(hostPort.trimmed());
    if (!endpoint)
        return endpoint.error();
    if (Status files = checkTlsFiles(tls); !files)
        return files.error();
    if (!access.user.isEmpty() && password.isEmpty())
        return tr("The user %1 needs a password.").arg(access.user);
    ServerSpec spec = endpoint.value();
    spec.user = access.user;
    spec.password = password;
    spec.authOtherNodes = access.authOtherNodes;
    spec.tls = tls;
    // Added again (after a restart, whose settings keep no password): the password is set on
    // the entry that is there, for this session.
    for (auto &[label, known] : m_entries) {
        if (known.spec.isEndpoint && known.spec.host == spec.host && known.spec.port == spec.port) {
            known.spec.user = access.user;
            known.spec.password = password;
            known.spec.authOtherNodes = access.authOtherNodes;
            known.spec.tls = tls;
            UiSettings::setEndpointTls(hostPortText(spec.host, spec.port), tls);
            setChecked(label, true);
            showMessage(tr("Endpoint %1: password set for this session.").arg(label), false);
            Q_EMIT selectionChanged();
            return QString();
        }
    }
    addEntry(CatalogEntry::forSpec(spec), true);
    QStringList saved = UiSettings::endpoints();
    if (!saved.contains(hostPort.trimmed()))
        UiSettings::setEndpoints(saved << hostPort.trimmed());
    UiSettings::setEndpointTls(hostPortText(spec.host, spec.port), tls);
    saveSelection();
    showMessage(tr("Added endpoint %1. It is flushed only if you confirm before a run.").arg(hostPort.trimmed()),
                false);
    Q_EMIT selectionChanged();
    return QString();
}

// Only what the user added can be removed: a server found in the cache or on PATH would be
// listed again by the next discovery.
bool ServersPanel::isRemovable(const QTreeWidgetItem *item) const
{
    const auto it = m_entries.find(item->data(NameColumn, LabelRole).toString());
    return it != m_entries.end() && (it->second.spec.isEndpoint || it->second.spec.source == ServerSource::User);
}

void ServersPanel::updateRemoveButton()
{
    const QList<QTreeWidgetItem *> items = m_list->selectedItems();
    m_remove->setEnabled(m_list->isEnabled() && !items.isEmpty()
                         && std::all_of(items.begin(), items.end(), [this](const QTreeWidgetItem *item) { return isRemovable(item); }));
}

void ServersPanel::removeSelected()
{
    QStringList removed;
    for (QTreeWidgetItem *item : m_list->selectedItems()) {
        if (!isRemovable(item))
            continue;
        auto it = m_entries.find(item->data(NameColumn, LabelRole).toString());
        const ServerSpec &spec = it->second.spec;
        if (spec.isEndpoint) {
            QStringList saved = UiSettings::endpoints();
            saved.removeAll(hostPortText(spec.host, spec.port));
            UiSettings::setEndpoints(saved);
            UiSettings::setEndpointTls(hostPortText(spec.host, spec.port), TlsSettings());
            removed << tr("endpoint %1").arg(hostPortText(spec.host, spec.port));
        } else {
            QStringList saved = UiSettings::userBinaries();
            saved.removeAll(spec.binaryPath);
            UiSettings::setUserBinaries(saved);
            removed << spec.binaryPath;
        }
        m_entries.erase(it);
        delete item;
    }
    fitListHeight();
    saveSelection();
    // What was said about adding it ("Added endpoint …") no longer holds.
    if (!removed.isEmpty())
        showMessage(tr("Removed %1.").arg(removed.join(QStringLiteral(", "))), false);
    Q_EMIT selectionChanged();
}

void ServersPanel::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QStringLiteral("color: palette(mid);"));
    m_message->setVisible(!text.isEmpty());
}

QString ServersPanel::inlineMessage() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void ServersPanel::resetStates()
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (!(item->flags() & Qt::ItemIsUserCheckable))
            continue;
        item->setText(StateColumn, tr("idle"));
        item->setForeground(StateColumn, kIdleColour);
        item->setToolTip(StateColumn, QString());
    }
}

void ServersPanel::showProgress(const ServerProgress &progress)
{
    QTreeWidgetItem *item = itemFor(progress.serverId);
    if (!item)
        return;
    QString text = progressStateName(progress.state);
    if (progress.moving())
        text += QStringLiteral(" %1%").arg(int(progress.fraction() * 100.0));
    item->setText(StateColumn, text);
    item->setForeground(StateColumn, stateColour(progress.state));
    item->setToolTip(StateColumn, progress.message);
}

QString ServersPanel::stateText(const QString &label) const
{
    QTreeWidgetItem *item = itemFor(label);
    return item ? item->text(StateColumn) : QString();
}

void ServersPanel::setLocked(bool locked)
{
    m_list->setEnabled(!locked);
    m_addBinary->setEnabled(!locked);
    m_addSource->setEnabled(!locked);   // a build never runs beside a timed pass
    m_addEndpoint->setEnabled(!locked);
    updateRemoveButton();
    if (!locked && m_discoverWhenUnlocked) {
        m_discoverWhenUnlocked = false;
        discover();
    }
}

void ServersPanel::setPathsHidden(bool hidden)
{
    m_pathsHidden = hidden;
    // In front of an audience the version and its state are what matter.
    m_list->setColumnHidden(SourceColumn, hidden);
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        auto it = m_entries.find(item->data(NameColumn, LabelRole).toString());
        if (it == m_entries.end())
            continue;
        item->setText(SourceColumn, sourceText(it->second.spec));
        item->setToolTip(NameColumn, it->first);
    }
}
