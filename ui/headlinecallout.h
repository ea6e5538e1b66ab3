#pragma once
// The big-number call-out of demo mode: the chart's headline change ("−10.0%") large, and
// what it is of under it ("memory per stored attribute, Valkey 8.0.1 → 9.1.2"). The words and
// the number come from the figures layer's headline (chartHeadline()); nothing is computed
// here. The number is green when it is good news and red when it is bad, as in the table; while
// it is not settled it says "pending", muted.
// A chart whose only headline is a reference ratio (hash-ttl without a total) shows that:
// "1.83×", "memory per key, hsetex against set-ex on Valkey 9.1.2, 120-byte values".

#include "figureviews.h"
#include "figures.h"
#include <QWidget>

class QLabel;

class HeadlineCallout : public QWidget {
    Q_OBJECT
public:
    explicit HeadlineCallout(QWidget *parent = nullptr);

    // The headline of `kind` for these (shown) results; false when the chart has none, and
    // then the call-out is empty.
    bool showHeadline(const Figures &figures, ChartKind kind);
    void setPixelSizes(int number, int caption);

    QString changeText() const;    // "−10.0%", "pending" while a figure is not settled
    QString captionText() const;
    QLabel *numberLabel() const { return m_number; }
    QLabel *captionLabel() const { return m_caption; }

private:
    QLabel *m_number = nullptr;
    QLabel *m_caption = nullptr;
};
