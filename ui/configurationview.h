#pragma once
// Why a version differs: the settings whose value is not the same on every compared server
// (Figures::configDifferences(), from each server's CONFIG GET *), those that bear on memory
// and time first and in bold, the settings only some versions have, and what the run's server
// settings applied or could not apply on each server.

#include "resultsbundle.h"
#include <QTreeWidget>

class Figures;

class ConfigurationView : public QTreeWidget {
    Q_OBJECT
public:
    explicit ConfigurationView(QWidget *parent = nullptr);
    void setFigures(const Figures &figures);

private:
    QTreeWidgetItem *section(const QString &title, const QString &tooltip);
    void addApplied(const Figures &figures, const QStringList &ids);

    QStringList m_signature;   // what the shown table was built from
};
