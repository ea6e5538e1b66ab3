#include "commands.h"

#include <QApplication>
#include <QMainWindow>

int runWindow(int &argc, char **argv)
{
    QApplication app(argc, argv);
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Versus"));
    window.show();
    return app.exec();
}
