// The pictures README.md and docs/ show are what their captions say: a caption that names a size
// preset ("drawn at the blog-tall preset") or a size ("1200×1500") matches the image's own pixel
// size (the README called its 1200×1500 chart "exported at the blog preset").
#include "exportoptions.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QRegularExpression>
#include <QtTest>

class DocImagesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void captionsSayTheImagesSize()
    {
        const QString root = qEnvironmentVariable("VERSUS_SOURCE_DIR");
        QVERIFY2(!root.isEmpty(), "VERSUS_SOURCE_DIR is not set (ctest sets it)");
        QStringList documents{QDir(root).filePath(QStringLiteral("README.md"))};
        for (const QString &name : QDir(QDir(root).filePath(QStringLiteral("docs"))).entryList({QStringLiteral("*.md")}, QDir::Files))
            documents << QDir(root).filePath(QStringLiteral("docs/") + name);
        const QRegularExpression image(QStringLiteral("!\\[([^\\]]*)\\]\\(([^)\\s]+\\.png)\\)"));
        const QRegularExpression preset(QStringLiteral("\\bthe ([a-z0-9-]+) preset\\b"));
        const QRegularExpression size(QStringLiteral("\\b(\\d{3,5}) ?[×x] ?(\\d{3,5})\\b"));
        int checked = 0;
        for (const QString &document : documents) {
            QFile file(document);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(document));
            const QString text = QString::fromUtf8(file.readAll());
            for (const QRegularExpressionMatch &match : image.globalMatch(text)) {
                const QString caption = match.captured(1);
                const QString path = QFileInfo(document).dir().filePath(match.captured(2));
                const QSize actual = QImageReader(path).size();
                QVERIFY2(actual.isValid(), qPrintable(QStringLiteral("%1: cannot read %2").arg(document, path)));
                const QString where = QStringLiteral("%1: \"%2\" is %3×%4").arg(document, caption).arg(actual.width()).arg(actual.height());
                for (const QRegularExpressionMatch &named : preset.globalMatch(caption)) {
                    const std::optional<SizePreset> found = findSizePreset(named.captured(1));
                    QVERIFY2(found, qPrintable(where + QStringLiteral(": no preset ") + named.captured(1)));
                    QVERIFY2(found->size == actual, qPrintable(where));
                    ++checked;
                }
                for (const QRegularExpressionMatch &said : size.globalMatch(caption)) {
                    QVERIFY2(QSize(said.captured(1).toInt(), said.captured(2).toInt()) == actual, qPrintable(where));
                    ++checked;
                }
            }
        }
        // The README's chart names its preset and its size.
        QVERIFY(checked >= 2);
    }
};

QTEST_GUILESS_MAIN(DocImagesTest)
#include "tst_docimages.moc"
