#include "sidebar.h"

#include <QLabel>
#include <QVBoxLayout>

Sidebar::Sidebar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sidebar"));
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(16, 14, 12, 14);
    m_layout->setSpacing(6);
}

void Sidebar::addSection(const QString &title, QWidget *content, int stretch)
{
    auto *heading = new QLabel(title.toUpper());
    QFont font = heading->font();
    font.setBold(true);
    font.setLetterSpacing(QFont::PercentageSpacing, 108);
    font.setPointSizeF(font.pointSizeF() * 0.9);
    heading->setFont(font);
    heading->setStyleSheet(QStringLiteral("color: #546e7a;"));
    if (m_layout->count() > 0)
        m_layout->addSpacing(14);
    m_layout->addWidget(heading);
    // Sections keep their natural height; the spare room goes below the last one.
    if (stretch == 0)
        content->setSizePolicy(content->sizePolicy().horizontalPolicy(), QSizePolicy::Maximum);
    m_layout->addWidget(content, stretch);
}

void Sidebar::addStretch()
{
    m_layout->addStretch();
}
