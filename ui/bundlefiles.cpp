#include "bundlefiles.h"

#include "bundlejson.h"
#include "uisettings.h"
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QObject>
#include <QStandardPaths>

namespace {

const QString purpose = QStringLiteral("bundles");

QString startDirectory()
{
    const QString last = UiSettings::lastDirectory(purpose);
    return last.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : last;
}

QString filter() { return QObject::tr("Versus results (*.json);;All files (*)"); }

} // namespace

QString chooseBundleToOpen(QWidget *parent, const QString &title)
{
    const QString path = QFileDialog::getOpenFileName(parent, title.isEmpty() ? QObject::tr("Open results") : title,
                                                      startDirectory(), filter());
    if (!path.isEmpty())
        UiSettings::setLastDirectory(purpose, QFileInfo(path).absolutePath());
    return path;
}

QString chooseBundleToSave(QWidget *parent, const ResultsBundle &bundle)
{
    const QString suggested = QDir(startDirectory()).filePath(suggestedBundleName(bundle));
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Save results"), suggested, filter());
    if (path.isEmpty())
        return path;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    UiSettings::setLastDirectory(purpose, QFileInfo(path).absolutePath());
    return path;
}

Outcome<ResultsBundle> loadBundleFile(const QString &path)
{
    return loadBundle(path);
}

Status saveBundleFile(const ResultsBundle &bundle, const QString &path)
{
    return saveBundle(bundle, path);
}

QString suggestedBundleName(const ResultsBundle &bundle)
{
    const QString name = bundle.workload.name.isEmpty() ? QStringLiteral("results") : bundle.workload.name;
    const QDateTime when = bundle.created.isValid() ? bundle.created.toLocalTime() : QDateTime::currentDateTime();
    return QStringLiteral("%1-%2.json").arg(name, when.toString(QStringLiteral("yyyy-MM-dd-HHmm")));
}
