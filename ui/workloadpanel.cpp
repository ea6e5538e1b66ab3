#include "workloadpanel.h"

#include "backgroundtasks.h"
#include "hashttlworkload.h"
#include "uisettings.h"
#include "sweepoptions.h"
#include "workloadfactory.h"
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

struct Prepared {
    std::shared_ptr<const Workload> workload;
    WorkloadInfo description;
    QString error;
    std::optional<SweepRequest> sweep;
};

// Off the GUI thread: the workload, or with a sweep ("value-size=16,64,256") one per value, the
// first one standing for them all in the summary.
Prepared prepareWorkload(const QString &nameOrFile, std::map<QString, QString> parameters, const QString &attributes,
                         long long events, const QString &sweepText)
{
    Prepared prepared;
    if (!sweepText.isEmpty()) {
        // The swept parameter's own box is left out: the sweep gives its values.
        parameters.erase(sweepText.section(QLatin1Char('='), 0, 0).trimmed());
        const Outcome<SweepValues> sweep = parseSweep({sweepText}, nameOrFile, parameters);
        if (!sweep) {
            prepared.error = sweep.error();
            return prepared;
        }
        const Outcome<SweepRequest> request = sweepRequest(sweep.value(), parameters, [&](const std::map<QString, QString> &at) {
            return makeWorkload(nameOrFile, at, attributes, events, false);
        });
        if (!request) {
            prepared.error = request.error();
            return prepared;
        }
        prepared.sweep = request.value();
        prepared.workload = request->points.front().workload;
        prepared.description = prepared.workload->describe();
        return prepared;
    }
    Outcome<std::shared_ptr<Workload>> made = makeWorkload(nameOrFile, parameters, attributes, events, false);
    if (!made) {
        prepared.error = made.error();
        return prepared;
    }
    prepared.workload = made.value();
    prepared.description = prepared.workload->describe();
    return prepared;
}

QSpinBox *spinBox(int minimum, int maximum, int value, const QString &suffix = QString())
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setGroupSeparatorShown(true);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}

QWidget *pathRow(QLineEdit *edit, QToolButton *button)
{
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(button);
    return row;
}

QFormLayout *formOn(QWidget *page)
{
    auto *form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return form;
}

void fitStackToCurrent(QStackedWidget *stack)
{
    for (int i = 0; i < stack->count(); ++i)
        stack->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                        i == stack->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    stack->adjustSize();
}

} // namespace

WorkloadPanel::WorkloadPanel(QWidget *parent) : QWidget(parent), m_tasks(new BackgroundTasks(this))
{
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("workloadKind"));
    m_kind->addItem(tr("E-commerce profiles (built-in)"), QStringLiteral("ecommerce"));
    m_kind->addItem(tr("Hash field TTL vs plain keys"), QStringLiteral("hash-ttl"));
    m_kind->addItem(tr("Recording or capture file"), QStringLiteral("file"));
    m_pages = new QStackedWidget;
    m_pages->addWidget(ecommercePage());
    m_pages->addWidget(hashTtlPage());
    m_pages->addWidget(filePage());
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("workloadSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &WorkloadPanel::rebuild);

    // The stack is as tall as the page shown, not as its tallest page.
    connect(m_pages, &QStackedWidget::currentChanged, this, [this] { fitStackToCurrent(m_pages); });
    connect(m_kind, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int index) {
        m_pages->setCurrentIndex(index);
        remember(QStringLiteral("workload/kind"), choice());
        scheduleRebuild();
    });
    for (QSpinBox *box : {m_events, m_keys, m_valueSize, m_ttl})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, &WorkloadPanel::scheduleRebuild);
    for (QLineEdit *edit : {m_attributes, m_file})
        connect(edit, &QLineEdit::editingFinished, this, &WorkloadPanel::scheduleRebuild);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kind);
    layout->addWidget(m_pages);
    layout->addWidget(m_summary);
    const int saved = m_kind->findData(UiSettings::value(QStringLiteral("workload/kind"), QStringLiteral("ecommerce")));
    m_kind->setCurrentIndex(saved < 0 ? 0 : saved);
    m_pages->setCurrentIndex(m_kind->currentIndex());
    fitStackToCurrent(m_pages);
    scheduleRebuild();
}

// A hash-tag choice, remembered under its object name; changing it prepares the workload again.
QComboBox *WorkloadPanel::hashTagBox(const QString &name, const std::vector<std::pair<QString, QString>> &choices,
                                     const QString &toolTip)
{
    auto *box = new QComboBox;
    box->setObjectName(name);
    box->setToolTip(toolTip);
    for (const auto &[text, value] : choices)
        box->addItem(text, value);
    const int saved = box->findData(UiSettings::value(QStringLiteral("workload/") + name).toString());
    box->setCurrentIndex(saved < 0 ? 0 : saved);
    connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, box, name] {
        remember(QStringLiteral("workload/") + name, box->currentData().toString());
        scheduleRebuild();
    });
    return box;
}

QWidget *WorkloadPanel::ecommercePage()
{
    auto *page = new QWidget;
    m_events = spinBox(0, 10000000, UiSettings::value(QStringLiteral("workload/events"), 0).toInt());
    m_events->setObjectName(QStringLiteral("ecommerceEvents"));
    // 0 replays the built-in recording; another count generates that many events.
    m_events->setSpecialValueText(tr("built-in recording"));
    m_events->setSingleStep(1000);
    m_attributes = new QLineEdit(UiSettings::value(QStringLiteral("workload/attributes")).toString());
    m_attributes->setPlaceholderText(tr("default attributes"));
    auto *attributesButton = new QToolButton;
    attributesButton->setText(QStringLiteral("…"));
    connect(attributesButton, &QToolButton::clicked, this, [this] {
        browse(m_attributes, tr("Attribute configuration"), tr("JSON (*.json);;All files (*)"));
    });
    m_shopperTag = hashTagBox(QStringLiteral("ecommerceHashTag"), {{tr("per shopper"), QStringLiteral("shopper")}, {tr("none"), QStringLiteral("none")}},
                              tr("Cluster hash tag: p:{shopper}:attribute puts a shopper's keys in one slot, so each event "
                                 "goes to one primary of a cluster (docs/WORKLOADS.md, \"Hash tags\")."));
    QFormLayout *form = formOn(page);
    form->addRow(tr("Events"), m_events);
    form->addRow(tr("Attributes"), pathRow(m_attributes, attributesButton));
    form->addRow(tr("Hash tag"), m_shopperTag);
    return page;
}

QWidget *WorkloadPanel::hashTtlPage()
{
    auto *page = new QWidget;
    const HashTtlParameters defaults;
    m_keys = spinBox(1, 10000000, UiSettings::value(QStringLiteral("workload/keys"), qlonglong(defaults.keys)).toInt());
    m_keys->setObjectName(QStringLiteral("hashTtlKeys"));
    m_valueSize = spinBox(1, 1000000, UiSettings::value(QStringLiteral("workload/value-size"), qlonglong(defaults.valueSize)).toInt(),
                          tr(" bytes"));
    m_valueSize->setObjectName(QStringLiteral("hashTtlValueSize"));
    m_ttl = spinBox(1, 100000000, UiSettings::value(QStringLiteral("workload/ttl"), qlonglong(defaults.ttl)).toInt(), tr(" s"));
    m_ttl->setObjectName(QStringLiteral("hashTtlTtl"));
    m_userTag = hashTagBox(QStringLiteral("hashTtlHashTag"), {{tr("none"), QStringLiteral("none")}, {tr("per user"), QStringLiteral("user")}},
                           tr("Cluster hash tag: user:{i} puts a user's two keys in one slot; it makes every key two "
                              "bytes longer (docs/WORKLOADS.md, \"Hash tags\")."));
    QFormLayout *form = formOn(page);
    form->addRow(tr("Keys"), m_keys);
    form->addRow(tr("Value size"), m_valueSize);
    form->addRow(tr("TTL"), m_ttl);
    form->addRow(tr("Hash tag"), m_userTag);
    // A sweep runs the workload at each value of one parameter, all in one bundle.
    m_sweepText = new QLineEdit(UiSettings::value(QStringLiteral("workload/sweep")).toString());
    m_sweepText->setObjectName(QStringLiteral("hashTtlSweep"));
    m_sweepText->setPlaceholderText(tr("e.g. value-size=16,64,256"));
    m_sweepText->setToolTip(tr("Run at each of these values of keys, value-size or ttl, or of batch (events per "
                               "pipeline: batch=1,16,256), one run per value, all in one bundle; the Sweep tab "
                               "draws them. Empty: one run."));
    form->addRow(tr("Sweep"), m_sweepText);
    connect(m_sweepText, &QLineEdit::editingFinished, this, [this] {
        remember(QStringLiteral("workload/sweep"), m_sweepText->text().trimmed());
        scheduleRebuild();
    });
    return page;
}

QWidget *WorkloadPanel::filePage()
{
    auto *page = new QWidget;
    m_file = new QLineEdit(UiSettings::value(QStringLiteral("workload/file")).toString());
    m_file->setPlaceholderText(tr("events .jsonl or capture"));
    auto *fileButton = new QToolButton;
    fileButton->setText(QStringLiteral("…"));
    connect(fileButton, &QToolButton::clicked, this, [this] {
        browse(m_file, tr("Workload file"), tr("Recordings and captures (*.jsonl *.json *.txt *.cap);;All files (*)"));
    });
    QFormLayout *form = formOn(page);
    form->addRow(tr("File"), pathRow(m_file, fileButton));
    return page;
}

WorkloadPanel::~WorkloadPanel() = default;

QString WorkloadPanel::choice() const
{
    return m_kind->currentData().toString();
}

void WorkloadPanel::choose(const QString &nameOrFile)
{
    const int index = m_kind->findData(nameOrFile);
    if (index >= 0 && nameOrFile != QLatin1String("file")) {
        m_kind->setCurrentIndex(index);
    } else {
        m_file->setText(nameOrFile);
        m_kind->setCurrentIndex(m_kind->findData(QStringLiteral("file")));
    }
    scheduleRebuild();
}

void WorkloadPanel::scheduleRebuild()
{
    // The old workload must not be run once the user changed what they asked for.
    m_workload.reset();
    m_sweep.reset();
    m_error.clear();
    m_pendingRebuild = true;
    m_summary->setText(tr("<span style='color:gray'>Preparing workload…</span>"));
    m_debounce->start();
    Q_EMIT workloadChanged();
}

void WorkloadPanel::rebuild()
{
    m_pendingRebuild = false;
    m_preparing = true;
    const int generation = ++m_generation;
    const QString kind = choice();
    QString nameOrFile = kind;
    std::map<QString, QString> parameters;
    QString attributes;
    long long events = 0;
    if (kind == QLatin1String("ecommerce")) {
        events = m_events->value();
        attributes = m_attributes->text().trimmed();
        parameters[QStringLiteral("hash-tag")] = m_shopperTag->currentData().toString();
        remember(QStringLiteral("workload/events"), m_events->value());
        remember(QStringLiteral("workload/attributes"), attributes);
    } else if (kind == QLatin1String("hash-ttl")) {
        parameters[QStringLiteral("keys")] = QString::number(m_keys->value());
        parameters[QStringLiteral("value-size")] = QString::number(m_valueSize->value());
        parameters[QStringLiteral("ttl")] = QString::number(m_ttl->value());
        parameters[QStringLiteral("hash-tag")] = m_userTag->currentData().toString();
        remember(QStringLiteral("workload/keys"), m_keys->value());
        remember(QStringLiteral("workload/value-size"), m_valueSize->value());
        remember(QStringLiteral("workload/ttl"), m_ttl->value());
    } else {
        nameOrFile = m_file->text().trimmed();
        remember(QStringLiteral("workload/file"), nameOrFile);
    }
    if (nameOrFile.isEmpty()) {
        m_preparing = false;
        m_error = tr("Choose a recording or capture file.");
        showSummary();
        Q_EMIT workloadChanged();
        return;
    }
    const QString sweepText = kind == QLatin1String("hash-ttl") ? m_sweepText->text().trimmed() : QString();
    m_tasks->run<Prepared>([nameOrFile, parameters, attributes, events, sweepText] {
        return prepareWorkload(nameOrFile, parameters, attributes, events, sweepText);
    }, [this, generation](const Prepared &prepared) {
        if (generation != m_generation)
            return;   // superseded by a newer choice
        m_preparing = false;
        m_workload = prepared.workload;
        m_sweep = prepared.sweep;
        m_description = prepared.description;
        m_error = prepared.error;
        showSummary();
        Q_EMIT workloadChanged();
    });
}

void WorkloadPanel::showSummary()
{
    if (!m_error.isEmpty() || !m_workload) {
        m_summary->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(m_error.toHtmlEscaped()));
        return;
    }
    m_summary->setText(summaryText());
}

QString WorkloadPanel::summaryText() const
{
    if (!m_workload)
        return m_error;
    const QLocale locale(QLocale::English);
    QString text;
    if (m_description.typesTimedAlone) {
        // Each pattern is its own pass (hash-ttl): commands per event is a figure of one pass,
        // and the commands of every pass over the events of one would mean none of them.
        text = tr("<b>%1</b> events per pattern · <b>%2</b> commands in all · each pattern is replayed and "
                  "timed on its own")
                   .arg(locale.toString(m_description.events), locale.toString(m_description.commands));
    } else {
        const double perEvent =
            m_description.events > 0 ? double(m_description.commands) / double(m_description.events) : 0;
        text = tr("<b>%1</b> events · <b>%2</b> commands · <b>%3</b> commands per event")
                   .arg(locale.toString(m_description.events), locale.toString(m_description.commands),
                        QString::number(perEvent, 'f', perEvent < 10 ? 2 : 1));
    }
    if (!m_description.types.isEmpty())
        text += QStringLiteral("<br><span style='color:gray'>%1</span>")
                    .arg(tr("%n categories: ", nullptr, int(m_description.types.size())) +
                         m_description.types.join(QStringLiteral(", ")).toHtmlEscaped());
    if (m_sweep) {
        QStringList values;
        for (const SweepRequest::Point &point : m_sweep->points)
            values << point.value;
        text += QStringLiteral("<br>%1").arg(tr("Sweep of %1 over %2: %3 runs")
                                                 .arg(m_sweep->parameter, values.join(QStringLiteral(", ")))
                                                 .arg(values.size())
                                                 .toHtmlEscaped());
    }
    if (!m_pathsHidden && !m_description.sourceFile.isEmpty())
        text += QStringLiteral("<br><span style='color:gray'>%1</span>")
                    .arg(QFileInfo(m_description.sourceFile).fileName().toHtmlEscaped());
    return text;
}

void WorkloadPanel::browse(QLineEdit *target, const QString &title, const QString &filter)
{
    const QString path = QFileDialog::getOpenFileName(this, title, UiSettings::lastDirectory(QStringLiteral("workload")),
                                                      filter);
    if (path.isEmpty())
        return;
    UiSettings::setLastDirectory(QStringLiteral("workload"), QFileInfo(path).absolutePath());
    target->setText(path);
    scheduleRebuild();
}

void WorkloadPanel::setLocked(bool locked)
{
    m_kind->setEnabled(!locked);
    m_pages->setEnabled(!locked);
}

void WorkloadPanel::setPathsHidden(bool hidden)
{
    m_pathsHidden = hidden;
    showSummary();
}

void WorkloadPanel::setSweep(const QString &text)
{
    m_sweepText->setText(text);
    remember(QStringLiteral("workload/sweep"), text.trimmed());
    scheduleRebuild();
}

void WorkloadPanel::startFromDefaults()
{
    m_remembers = false;
    const HashTtlParameters hashTtl;
    m_events->setValue(0);   // the built-in recording
    m_attributes->clear();   // the built-in attributes
    m_keys->setValue(int(hashTtl.keys));
    m_valueSize->setValue(int(hashTtl.valueSize));
    m_ttl->setValue(int(hashTtl.ttl));
    // Each box lists its workload's default first: per shopper, none.
    m_shopperTag->setCurrentIndex(0);
    m_userTag->setCurrentIndex(0);
    m_sweepText->clear();
    scheduleRebuild();
}

void WorkloadPanel::remember(const QString &key, const QVariant &value)
{
    if (m_remembers)
        UiSettings::setValue(key, value);
}
