#pragma once
// Why memory moved: for each attribute type (or hash-ttl pattern), its key count and the
// OBJECT ENCODING histogram on every server, side by side, as the figures layer gives them.

#include "resultsbundle.h"
#include <QTreeWidget>

class Figures;
struct FigureTable;

class EncodingsView : public QTreeWidget {
    Q_OBJECT
public:
    explicit EncodingsView(QWidget *parent = nullptr);
    void setFigures(const Figures &figures);

private:
    void addType(const Figures &figures, const FigureTable &memory, const QString &type, bool expand);
};
