#include "replacequestion.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

bool confirmReplacing(QWidget *parent, const QStringList &paths)
{
    if (paths.isEmpty())
        return true;
    const QString folder = QDir::toNativeSeparators(QFileInfo(paths.front()).absolutePath());
    QStringList names;
    for (const QString &path : paths)
        names << QStringLiteral("• ") + QFileInfo(path).fileName();
    QMessageBox box(QMessageBox::Question, QObject::tr("Replace files?"),
                    paths.size() == 1 ? QObject::tr("This file in %1 would be replaced:").arg(folder)
                                      : QObject::tr("These %1 files in %2 would be replaced:").arg(paths.size()).arg(folder),
                    QMessageBox::NoButton, parent);
    box.setObjectName(QStringLiteral("replaceQuestion"));
    box.setInformativeText(names.join(QLatin1Char('\n')));
    QPushButton *replace = box.addButton(QObject::tr("Replace"), QMessageBox::AcceptRole);
    replace->setObjectName(QStringLiteral("replaceButton"));
    QPushButton *keep = box.addButton(QObject::tr("Keep them"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepButton"));
    box.setDefaultButton(keep);
    box.exec();
    return box.clickedButton() == replace;
}
