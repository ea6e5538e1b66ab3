#pragma once
// Collects export options and shows a live preview; the rendering itself is ChartExporter's
// (charts/chartexporter.h). Errors are shown inside the dialog.

#include "chartexporter.h"
#include "figureviews.h"
#include "exportchoices.h"
#include "exportoptions.h"
#include "outcome.h"
#include "resultsbundle.h"
#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // What the window shows: the figures' hidden versions stay out of the picture, the titles
    // and the data files (the others keep the colours they have in the window), their baseline
    // and category order stay. Shares their bundle.
    ExportDialog(const Figures &figures, ChartKind kind, QWidget *parent = nullptr);

    // What was chosen; without a picked preset or size, the default size with
    // tallerWhenCrowded, as versus export without --preset or --size.
    ExportOptions options() const;
    // The figures it exports: their hidden versions, order and commands shown.
    const Figures &figures() const { return m_figures; }
    // The options the chosen chart is drawn with: options() fitted (fittedOptions()).
    ExportOptions drawnOptions() const;
    // The view chosen, of those the figures have; setChartKind() of one they do not have chooses
    // the first.
    ChartKind chartKind() const;
    void setChartKind(ChartKind kind);
    // The chosen view is drawn as parts (the memory Why, whyexport.h), not as bars.
    bool whyChosen() const;
    void setPreset(const QString &name);          // a sizePresets() name or "custom"
    void setCategoryOrder(CategoryOrder order);   // the window's Sort, kept in the export
    void setCustomSize(const QSize &size);
    void setScale(double scale);
    void setFormat(ImageFormat format);
    void setFolder(const QString &folder);
    // The window's chart theme: the export starts in it (dark charts export dark) unless a
    // theme was picked in the dialog under the same window theme (exportchoices.h).
    void setViewTheme(ColorTheme theme);
    // As if picked in the dialog: remembered for the next export.
    void setTheme(ColorTheme theme);
    ColorTheme theme() const;
    QString outputPath() const;                   // folder/<chart>.<format>

    // What the buttons do, callable directly. Files that would be replaced are listed in a
    // question first (replacequestion.h); kept, nothing is written.
    Status exportCurrent();
    Outcome<QStringList> exportEverything();
    Status copyImage();
    QString errorText() const;
    QImage previewImage() const { return m_preview; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void createFields();
    QFormLayout *buildForm();
    QDialogButtonBox *buildButtons();
    void connectFields();
    void presetChanged();
    void showDrawnSize(const QSize &size);
    void schedulePreview();
    void updatePlaceholders();
    Outcome<QImage> renderChosen(const ExportOptions &options, ChartGeometry *geometry = nullptr) const;
    void renderPreview();
    void showResult(const QString &text, bool error);
    void browseFolder();
    void remember();
    bool mayReplace(const QStringList &names);

    Figures m_figures;
    QComboBox *m_chart = nullptr;
    QComboBox *m_preset = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QComboBox *m_scale = nullptr;
    QComboBox *m_format = nullptr;
    QComboBox *m_theme = nullptr;
    QLineEdit *m_title = nullptr;
    QLineEdit *m_subtitle = nullptr;
    QLineEdit *m_footnote = nullptr;
    QSpinBox *m_topCategories = nullptr;   // --top: the first N categories, 0 for all
    QLineEdit *m_onlyCategories = nullptr; // --categories: only these, comma-separated
    QLineEdit *m_folder = nullptr;
    QLabel *m_previewLabel = nullptr;
    QLabel *m_pixelSize = nullptr;
    QLabel *m_legibility = nullptr;   // what would make the image hard to read
    QLabel *m_message = nullptr;
    QTimer *m_previewTimer = nullptr;
    QImage m_preview;
    bool m_settingPreset = false;
    bool m_presetPicked = false;   // a preset or a size chosen, now or remembered
    ExportChoices m_choices;
    ColorTheme m_viewTheme = ColorTheme::Light;
    bool m_themePicked = false;   // in this dialog, by the user
};
