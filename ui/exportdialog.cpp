#include "exportdialog.h"

#include "chartdata.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "replacequestion.h"
#include "sweepexport.h"
#include "whyexport.h"
#include "uisettings.h"
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace {

QSpinBox *sizeBox(int value)
{
    auto *box = new QSpinBox;
    box->setRange(100, 10000);
    box->setValue(value);
    box->setSuffix(QStringLiteral(" px"));
    return box;
}

} // namespace

ExportDialog::ExportDialog(const Figures &figures, ChartKind kind, QWidget *parent)
    : QDialog(parent), m_figures(figures)
{
    setWindowTitle(tr("Export chart"));
    createFields();
    auto *left = new QVBoxLayout;
    left->addLayout(buildForm());
    left->addWidget(m_pixelSize);
    left->addWidget(m_legibility);
    left->addStretch();
    auto *top = new QHBoxLayout;
    top->addLayout(left);
    top->addWidget(m_previewLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(m_message);
    layout->addWidget(buildButtons());

    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &ExportDialog::renderPreview);
    connectFields();

    m_footnote->setPlaceholderText(defaultChartFootnote(m_figures));
    setChartKind(kind);
    m_choices = loadExportChoices();
    const ExportChoices remembered = m_choices;
    if (!remembered.preset.isEmpty())
        setPreset(remembered.preset);
    setScale(remembered.scale);
    setFormat(remembered.format);
    setViewTheme(ColorTheme::Light);
    updatePlaceholders();
    resize(1180, 620);
    renderPreview();
}

void ExportDialog::createFields()
{
    m_chart = new QComboBox;
    m_chart->setObjectName(QStringLiteral("chart"));
    // Every view the figures have, the Why chart among them when a server reported where its
    // bytes go.
    for (ChartKind each : chartKindsOf(m_figures))
        m_chart->addItem(figureView(each).title, int(each));
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    for (const SizePreset &preset : sizePresets())
        m_preset->addItem(QStringLiteral("%1 — %2×%3 (%4)")
                              .arg(preset.name).arg(preset.size.width()).arg(preset.size.height()).arg(preset.use),
                          preset.name);
    m_preset->addItem(tr("custom"), QStringLiteral("custom"));
    m_preset->setToolTip(tr("Until you pick one: blog, or blog-tall for a chart whose bars would be too thin for "
                            "their figures at blog's size, as versus export without --preset"));
    m_width = sizeBox(1200);
    m_height = sizeBox(675);
    m_scale = new QComboBox;
    m_scale->setObjectName(QStringLiteral("scale"));
    for (int scale : {1, 2, 3})
        m_scale->addItem(QStringLiteral("%1×").arg(scale), double(scale));
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("format"));
    m_format->addItem(QStringLiteral("PNG"), int(ImageFormat::Png));
    m_format->addItem(QStringLiteral("SVG"), int(ImageFormat::Svg));
    m_format->addItem(QStringLiteral("PDF"), int(ImageFormat::Pdf));
    m_theme = new QComboBox;
    m_theme->setObjectName(QStringLiteral("theme"));
    for (ColorTheme theme : allColorThemes())
        m_theme->addItem(colorThemeName(theme), int(theme));
    m_theme->setItemData(m_theme->findData(int(ColorTheme::TransparentDark)),
                         tr("No background; light text and axes for dark slides"), Qt::ToolTipRole);
    m_title = new QLineEdit;
    m_subtitle = new QLineEdit;
    m_footnote = new QLineEdit;
    // Fewer bars keep their figures: the same choices as --top and --categories.
    m_topCategories = new QSpinBox;
    m_topCategories->setObjectName(QStringLiteral("topCategories"));
    m_topCategories->setRange(0, 99);
    m_topCategories->setSpecialValueText(tr("all"));
    m_topCategories->setToolTip(tr("Show only the first N categories in the chosen order; totals always stay"));
    m_onlyCategories = new QLineEdit;
    m_onlyCategories->setObjectName(QStringLiteral("onlyCategories"));
    m_onlyCategories->setPlaceholderText(tr("all, or names separated by commas: counter, sum"));
    m_folder = new QLineEdit;
    QString folder = UiSettings::lastDirectory(QStringLiteral("export"));
    if (folder.isEmpty())
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    m_folder->setText(folder);
    m_legibility = new QLabel;
    m_legibility->setObjectName(QStringLiteral("legibility"));
    m_legibility->setWordWrap(true);
    m_legibility->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_pixelSize = new QLabel;
    m_pixelSize->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("exportMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_previewLabel = new QLabel;
    m_previewLabel->setMinimumSize(560, 340);
    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setStyleSheet(QStringLiteral("background: #eceff1; border: 1px solid #cfd8dc;"));
    m_previewLabel->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QFormLayout *ExportDialog::buildForm()
{
    auto *browse = new QToolButton;
    browse->setText(QStringLiteral("…"));
    connect(browse, &QToolButton::clicked, this, &ExportDialog::browseFolder);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_height);
    sizeRow->addWidget(m_scale);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Chart"), m_chart);
    form->addRow(tr("Preset"), m_preset);
    form->addRow(tr("Size"), sizeRow);
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Theme"), m_theme);
    form->addRow(tr("Title"), m_title);
    form->addRow(tr("Subtitle"), m_subtitle);
    form->addRow(tr("Footnote"), m_footnote);
    auto *categoriesRow = new QHBoxLayout;
    categoriesRow->addWidget(m_onlyCategories, 1);
    categoriesRow->addWidget(new QLabel(tr("first")));
    categoriesRow->addWidget(m_topCategories);
    form->addRow(tr("Categories"), categoriesRow);
    form->addRow(tr("Folder"), folderRow);
    return form;
}

QDialogButtonBox *ExportDialog::buildButtons()
{
    auto *buttons = new QDialogButtonBox;
    QPushButton *exportButton = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    exportButton->setObjectName(QStringLiteral("exportButton"));
    QPushButton *exportAllButton = buttons->addButton(tr("Export all"), QDialogButtonBox::ActionRole);
    QPushButton *copyButton = buttons->addButton(tr("Copy image"), QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    exportButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(exportButton, &QPushButton::clicked, this, [this] { exportCurrent(); });
    connect(exportAllButton, &QPushButton::clicked, this, [this] { exportEverything(); });
    connect(copyButton, &QPushButton::clicked, this, [this] { copyImage(); });
    return buttons;
}

// Every field redraws the preview; a size typed by hand makes the preset "custom".
void ExportDialog::connectFields()
{
    connect(m_preset, qOverload<int>(&QComboBox::currentIndexChanged), this, &ExportDialog::presetChanged);
    connect(m_preset, qOverload<int>(&QComboBox::activated), this, [this] {
        m_presetPicked = true;
        presetChanged();
    });
    connect(m_chart, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        updatePlaceholders();
        schedulePreview();
    });
    for (QSpinBox *box : {m_width, m_height})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, [this] {
            if (!m_settingPreset) {
                m_presetPicked = true;
                m_preset->setCurrentIndex(m_preset->findData(QStringLiteral("custom")));
            }
            schedulePreview();
        });
    for (QComboBox *box : {m_scale, m_format, m_theme})
        connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
            remember();
            schedulePreview();
        });
    // Only the user's own pick is remembered as a pick, not the theme the window suggested.
    connect(m_theme, qOverload<int>(&QComboBox::activated), this, [this] { setTheme(theme()); });
    for (QLineEdit *edit : {m_title, m_subtitle, m_footnote, m_onlyCategories})
        connect(edit, &QLineEdit::textChanged, this, &ExportDialog::schedulePreview);
    connect(m_topCategories, qOverload<int>(&QSpinBox::valueChanged), this, &ExportDialog::schedulePreview);
    connect(m_folder, &QLineEdit::textChanged, this, &ExportDialog::schedulePreview);
}

ChartKind ExportDialog::chartKind() const
{
    return ChartKind(m_chart->currentData().toInt());
}

bool ExportDialog::whyChosen() const
{
    return !figureView(chartKind()).drawnAsBars();
}

// The default title and subtitle of the chart chosen, shown where the fields are left empty.
void ExportDialog::updatePlaceholders()
{
    if (whyChosen()) {
        m_title->setPlaceholderText(defaultWhyTitle(m_figures));
        m_subtitle->setPlaceholderText(m_figures.buildCaveat());
        return;
    }
    m_title->setPlaceholderText(defaultChartTitle(m_figures, chartKind()));
    m_subtitle->setPlaceholderText(defaultChartSubtitle(m_figures, chartKind()));
}

Outcome<QImage> ExportDialog::renderChosen(const ExportOptions &options, ChartGeometry *geometry) const
{
    if (whyChosen())
        return renderWhyChart(m_figures, QString(), options);
    return renderChart(m_figures, chartKind(), options, geometry);
}

void ExportDialog::setChartKind(ChartKind kind)
{
    // A view these figures do not have (the window's Why (time) tab after a Redis 7.0 run): the first.
    m_chart->setCurrentIndex(std::max(0, m_chart->findData(int(kind))));
}

void ExportDialog::setCategoryOrder(CategoryOrder order)
{
    if (order == m_figures.options().order)
        return;
    Figures::Options options = m_figures.options();
    options.order = order;
    m_figures = Figures(m_figures.snapshot(), options);
    schedulePreview();
}

void ExportDialog::setPreset(const QString &name)
{
    m_presetPicked = true;
    const int index = m_preset->findData(name);
    if (index >= 0)
        m_preset->setCurrentIndex(index);
    presetChanged();
}

void ExportDialog::presetChanged()
{
    const QString name = m_preset->currentData().toString();
    if (std::optional<SizePreset> preset = findSizePreset(name)) {
        m_settingPreset = true;
        m_width->setValue(preset->size.width());
        m_height->setValue(preset->size.height());
        m_settingPreset = false;
        if (m_presetPicked) {
            m_choices.preset = name;
            remember();
        }
    }
    schedulePreview();
}

// No preset picked: the fields show the size the chart chosen is drawn at (fittedOptions()).
void ExportDialog::showDrawnSize(const QSize &size)
{
    const QSignalBlocker presetBlocker(m_preset);
    const QSignalBlocker widthBlocker(m_width);
    const QSignalBlocker heightBlocker(m_height);
    for (const SizePreset &preset : sizePresets()) {
        if (preset.size == size)
            m_preset->setCurrentIndex(m_preset->findData(preset.name));
    }
    m_width->setValue(size.width());
    m_height->setValue(size.height());
}

void ExportDialog::setCustomSize(const QSize &size)
{
    m_width->setValue(size.width());
    m_height->setValue(size.height());
}

void ExportDialog::setScale(double scale)
{
    const int index = m_scale->findData(scale);
    if (index >= 0)
        m_scale->setCurrentIndex(index);
}

void ExportDialog::setFormat(ImageFormat format)
{
    m_format->setCurrentIndex(m_format->findData(int(format)));
}

void ExportDialog::setFolder(const QString &folder)
{
    m_folder->setText(folder);
}

void ExportDialog::setViewTheme(ColorTheme theme)
{
    m_viewTheme = theme;
    if (!m_themePicked)
        m_theme->setCurrentIndex(m_theme->findData(int(m_choices.themeFor(theme))));
}

void ExportDialog::setTheme(ColorTheme theme)
{
    m_themePicked = true;
    m_choices.pickedTheme = theme;
    m_choices.pickedUnder = m_viewTheme;
    m_theme->setCurrentIndex(m_theme->findData(int(theme)));
    remember();
}

ColorTheme ExportDialog::theme() const
{
    return ColorTheme(m_theme->currentData().toInt());
}

// The scale, format and preset as the fields show them; the theme only as picked.
void ExportDialog::remember()
{
    if (m_settingPreset || !m_scale || !m_format)
        return;
    m_choices.scale = m_scale->currentData().toDouble();
    m_choices.format = ImageFormat(m_format->currentData().toInt());
    saveExportChoices(m_choices);
}

bool ExportDialog::mayReplace(const QStringList &names)
{
    const QStringList existing = existingFiles(m_folder->text(), names);
    if (confirmReplacing(this, existing))
        return true;
    // Neither a success nor an error: what the user chose.
    m_message->setText(existing.size() == 1 ? tr("Nothing written: %1 is kept.").arg(QFileInfo(existing.front()).fileName())
                                            : tr("Nothing written: the %1 files are kept.").arg(existing.size()));
    m_message->setStyleSheet(QString());
    return false;
}

ExportOptions ExportDialog::options() const
{
    ExportOptions options;
    // No size picked: the default size, taller for a chart that needs it, as versus export's.
    options.tallerWhenCrowded = !m_presetPicked;
    if (m_presetPicked)
        options.size = QSize(m_width->value(), m_height->value());
    options.scale = m_scale->currentData().toDouble();
    if (std::optional<SizePreset> preset = findSizePreset(m_preset->currentData().toString()); preset && m_presetPicked)
        options.dpi = preset->dpi;
    options.theme = theme();
    options.formats = {ImageFormat(m_format->currentData().toInt())};
    // An empty field means "derived from the results" (shown as the placeholder).
    if (!m_title->text().isEmpty())
        options.title = m_title->text();
    if (!m_subtitle->text().isEmpty())
        options.subtitle = m_subtitle->text();
    if (!m_footnote->text().isEmpty())
        options.footnote = m_footnote->text();
    options.topCategories = m_topCategories->value();
    for (const QString &name : m_onlyCategories->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            options.onlyCategories << name.trimmed();
    return options;
}

ExportOptions ExportDialog::drawnOptions() const
{
    return fittedOptions(m_figures, chartKind(), options());
}

QString ExportDialog::outputPath() const
{
    const ImageFormat format = ImageFormat(m_format->currentData().toInt());
    return QDir(m_folder->text()).filePath(chartFileName(chartKind(), format));
}

void ExportDialog::schedulePreview()
{
    m_previewTimer->start();
}

void ExportDialog::renderPreview()
{
    ExportOptions preview = drawnOptions();
    if (!m_presetPicked)
        showDrawnSize(preview.size);
    const QSize pixels = preview.pixelSize();
    m_pixelSize->setText(tr("Image: %1 × %2 px → %3").arg(pixels.width()).arg(pixels.height()).arg(outputPath()));
    // The preview shows the layout at scale 1: the same picture, fewer pixels.
    preview.scale = 1.0;
    ChartGeometry geometry;
    Outcome<QImage> image = renderChosen(preview, &geometry);
    if (!image) {
        m_preview = QImage();
        m_previewLabel->setPixmap(QPixmap());
        m_previewLabel->setText(image.error());
        m_legibility->clear();
        return;
    }
    m_preview = image.value();
    QStringList problems = whyChosen() ? QStringList() : legibilityProblems(chartKind(), preview, geometry);
    if (Status known = checkCategoryNames(m_figures, {chartKind()}, preview.onlyCategories); !known)
        problems.prepend(tr("Categories: %1").arg(known.error()));
    m_legibility->setText(problems.join(QLatin1Char('\n')));
    const QSize room = m_previewLabel->contentsRect().size() - QSize(8, 8);
    QImage scaled = m_preview.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    m_previewLabel->setPixmap(QPixmap::fromImage(scaled));
}

void ExportDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    // The preview is scaled to the room it has.
    m_previewTimer->start();
}

void ExportDialog::showResult(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QStringLiteral("color: #2e7d32;"));
}

QString ExportDialog::errorText() const
{
    return m_message->styleSheet().contains(QLatin1String("c62828")) ? m_message->text() : QString();
}

void ExportDialog::browseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export into"), m_folder->text());
    if (!folder.isEmpty())
        m_folder->setText(folder);
}

Status ExportDialog::exportCurrent()
{
    if (!QDir().mkpath(m_folder->text())) {
        showResult(tr("Cannot create the folder %1").arg(m_folder->text()), true);
        return Error{m_message->text()};
    }
    const QString path = outputPath();
    if (!mayReplace({QFileInfo(path).fileName()}))
        return Error{m_message->text()};
    // The row's drawing decides which export writes it (exportChart()).
    Status written = exportChart(m_figures, chartKind(), options(), path);
    if (!written) {
        showResult(written.error(), true);
        return written;
    }
    UiSettings::setLastDirectory(QStringLiteral("export"), m_folder->text());
    const QSize pixels = drawnOptions().pixelSize();
    showResult(tr("Wrote %1 (%2 × %3 px)").arg(path).arg(pixels.width()).arg(pixels.height()), false);
    return written;
}

Outcome<QStringList> ExportDialog::exportEverything()
{
    // Export all is what a writer publishes: the report comes with the charts.
    ExportOptions everything = options();
    everything.report = true;
    // A sweep's bundle also gets its sweep charts: files those would replace are asked about too.
    if (!mayReplace(exportFileNames(chartKindsOf(m_figures), everything) + sweepExportFileNames(sweepChartKinds(m_figures.bundle()), everything)))
        return Error{m_message->text()};
    Outcome<QStringList> written = exportAll(m_figures, m_folder->text(), everything);
    if (!written) {
        showResult(written.error(), true);
        return written;
    }
    UiSettings::setLastDirectory(QStringLiteral("export"), m_folder->text());
    showResult(tr("Wrote %n file(s) into %1", nullptr, int(written->size())).arg(m_folder->text()), false);
    return written;
}

Status ExportDialog::copyImage()
{
    Outcome<QImage> image = renderChosen(drawnOptions());
    if (!image) {
        showResult(image.error(), true);
        return Error{image.error()};
    }
    QApplication::clipboard()->setImage(image.value());
    showResult(tr("Copied a %1 × %2 px image to the clipboard").arg(image->width()).arg(image->height()), false);
    return Status::success();
}
