#include "runpanel.h"

#include "bundlejson.h"

#include "uisettings.h"
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

RunPanel::RunPanel(QWidget *parent) : QWidget(parent)
{
    m_repeats = new QSpinBox;
    m_repeats->setObjectName(QStringLiteral("repeats"));
    m_repeats->setRange(1, 50);
    m_repeats->setValue(UiSettings::value(QStringLiteral("run/repeats"), 1).toInt());
    m_repeats->setToolTip(tr("Each repeat runs on a freshly started server, interleaved across versions; "
                             "the figures' intervals come from the repeats."));
    m_schedule = new QComboBox;
    m_schedule->setObjectName(QStringLiteral("schedule"));
    m_schedule->addItem(tr("Fair (one server at a time)"), int(Schedule::Fair));
    m_schedule->addItem(tr("Concurrent"), int(Schedule::Concurrent));
    setSchedule(UiSettings::value(QStringLiteral("run/schedule"), QStringLiteral("fair")).toString() == QLatin1String("concurrent")
                    ? Schedule::Concurrent
                    : Schedule::Fair);
    connect(m_repeats, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int value) { remember(QStringLiteral("run/repeats"), value); });
    connect(m_schedule, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { remember(QStringLiteral("run/schedule"), scheduleName(schedule())); });

    m_serverConfig = new QLineEdit(UiSettings::value(QStringLiteral("run/serverConfig")).toString());
    m_serverConfig->setObjectName(QStringLiteral("serverConfig"));
    m_serverConfig->setPlaceholderText(tr("defaults, e.g. hash-max-listpack-entries=64"));
    m_serverConfig->setToolTip(tr("Settings applied to every launched server (name=value, separated by spaces), so a "
                                  "code change can be told from a change of default. A setting a version lacks is "
                                  "reported for that server; endpoints are left as they are."));
    connect(m_serverConfig, &QLineEdit::textChanged, this, [this](const QString &text) {
        remember(QStringLiteral("run/serverConfig"), text);
        refresh();
        Q_EMIT serverSettingsChanged();
    });

    m_topology = new QLineEdit(UiSettings::value(QStringLiteral("run/topology"), QStringLiteral("standalone")).toString());
    m_topology->setObjectName(QStringLiteral("topology"));
    m_topology->setPlaceholderText(tr("standalone, cluster:3 or both"));
    m_topology->setToolTip(tr("How each launched server runs, separated by commas: standalone, or as a cluster of N "
                              "primaries launched on this machine (cluster:N; cluster is cluster:3). Each topology is "
                              "a series of its own; standalone,cluster:1 compares a version with itself."));
    connect(m_topology, &QLineEdit::textChanged, this, [this](const QString &text) {
        remember(QStringLiteral("run/topology"), text);
        refresh();
        Q_EMIT serverSettingsChanged();
    });

    createOptionBoxes();
    createRunButtons();

    m_blocker = new QLabel;
    m_blocker->setWordWrap(true);
    m_blocker->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Repeats"), m_repeats);
    form->addRow(tr("Schedule"), m_schedule);
    form->addRow(tr("Topology"), m_topology);
    form->addRow(tr("Server settings"), m_serverConfig);
    auto *boxes = new QHBoxLayout;
    boxes->addWidget(m_selfCheck);
    boxes->addWidget(m_profile);
    boxes->addStretch(1);
    form->addRow(QString(), boxes);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run, 2);
    buttons->addWidget(m_cancel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_blocker);
    refresh();
}

void RunPanel::createOptionBoxes()
{
    m_selfCheck = new QCheckBox(tr("Self-check"));
    m_selfCheck->setObjectName(QStringLiteral("selfCheck"));
    m_selfCheck->setChecked(UiSettings::value(QStringLiteral("run/selfCheck"), false).toBool());
    m_selfCheck->setToolTip(tr("Run the first selected server's build a second time as a series of its own, on its own "
                               "server, interleaved like the others: the smallest change in time per command this machine "
                               "resolves, quoted beside every time verdict (versus run --self-check)."));
    connect(m_selfCheck, &QCheckBox::toggled, this, [this](bool checked) {
        remember(QStringLiteral("run/selfCheck"), checked);
        Q_EMIT serverSettingsChanged();
    });

    m_profile = new QCheckBox(tr("Profile (perf)"));
    m_profile->setObjectName(QStringLiteral("profile"));
    m_profile->setChecked(UiSettings::value(QStringLiteral("run/profile"), false).toBool());
    m_profile->setToolTip(tr("After every timed pass, replay the workload once more into each launched server, untimed, "
                             "under perf, and show where its CPU went (command execution, hash table lookups, memory "
                             "allocation, …) in the Profile tab. Never touches the timed figures (versus run --profile)."));
    connect(m_profile, &QCheckBox::toggled, this, [this](bool checked) { remember(QStringLiteral("run/profile"), checked); });
}

void RunPanel::createRunButtons()
{
    m_run = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setToolTip(tr("Run the workload on every selected server (Ctrl+R)"));
    m_run->setDefault(true);
    m_run->setMinimumHeight(34);
    m_run->setStyleSheet(QStringLiteral(
        "QPushButton { background: #1565c0; color: white; font-weight: bold; border-radius: 4px; padding: 4px 18px; }"
        "QPushButton:disabled { background: #b0bec5; color: #eceff1; }"
        "QPushButton:hover:!disabled { background: #1976d2; }"));
    m_cancel = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("Stop the run; servers are shut down (Esc)"));
    m_cancel->setMinimumHeight(34);
    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancelRequested);
}

int RunPanel::repeats() const { return m_repeats->value(); }
Schedule RunPanel::schedule() const { return Schedule(m_schedule->currentData().toInt()); }

void RunPanel::setSchedule(Schedule schedule)
{
    const int index = m_schedule->findData(int(schedule));
    if (index >= 0)
        m_schedule->setCurrentIndex(index);
}

void RunPanel::setRunning(bool running)
{
    m_running = running;
    refresh();
}

void RunPanel::setBlocker(const QString &reason)
{
    m_blockerText = reason;
    refresh();
}

Outcome<ServerSettings> RunPanel::serverSettings() const
{
    ServerSettings settings;
    for (const QString &token : m_serverConfig->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Outcome<std::pair<QString, QString>> parsed = parseServerSetting(token, tr("Server settings"));
        if (!parsed)
            return Error{parsed.error()};
        settings.push_back(parsed.value());
    }
    return settings;
}

Outcome<std::vector<Topology>> RunPanel::topologies() const
{
    Outcome<std::vector<Topology>> parsed = parseTopologies(m_topology->text());
    if (!parsed)
        return Error{tr("Topology: %1").arg(parsed.error())};
    return parsed;
}

void RunPanel::setTopology(const QString &text)
{
    m_topology->setText(text);
}

bool RunPanel::selfCheck() const
{
    return m_selfCheck->isChecked();
}

bool RunPanel::profile() const
{
    return m_profile->isChecked();
}

void RunPanel::startFromDefaults()
{
    m_remembers = false;
    m_repeats->setValue(1);
    setSchedule(Schedule::Fair);
    m_topology->setText(QStringLiteral("standalone"));
    m_serverConfig->clear();
    m_selfCheck->setChecked(false);
    m_profile->setChecked(false);
}

void RunPanel::remember(const QString &key, const QVariant &value)
{
    if (m_remembers)
        UiSettings::setValue(key, value);
}

bool RunPanel::canRun() const
{
    return !m_running && m_blockerText.isEmpty() && serverSettings().ok() && topologies().ok();
}

void RunPanel::refresh()
{
    m_run->setEnabled(canRun());
    m_cancel->setEnabled(m_running);
    m_repeats->setEnabled(!m_running);
    m_schedule->setEnabled(!m_running);
    m_serverConfig->setEnabled(!m_running);
    m_topology->setEnabled(!m_running);
    m_selfCheck->setEnabled(!m_running);
    m_profile->setEnabled(!m_running);
    m_blocker->setText(m_running ? QString() : m_blockerText);
    m_blocker->setVisible(!m_blocker->text().isEmpty());
}
