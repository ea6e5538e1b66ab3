#pragma once
// Bodies of the headless `versus` subcommands. Each returns the process exit code:
// 0 success, 1 a server failed, 2 bad usage or bad input, 130 interrupted.

#include <QStringList>

class QCommandLineParser;
class QString;

int runServersCommand(const QStringList &arguments);   // versus servers
int runGenerateCommand(const QStringList &arguments);  // versus generate
int runExportCommand(const QStringList &arguments);    // versus export
int runRunCommand(const QStringList &arguments);       // versus run
int runBuildCommand(const QStringList &arguments);     // versus build

// versus servers --endpoint HOST:PORT [--put-back]: what a killed run left on an endpoint.
int runEndpointLeftovers(const QCommandLineParser &parser);
// versus servers --record FOLDER --product … : records a Debian package unpacked into the cache.
void addRecordPackageOptions(QCommandLineParser &parser);
bool isRecordPackage(const QCommandLineParser &parser);
// The first of --product, --loader, … given without --record; empty when none is.
QString recordOptionWithoutFolder(const QCommandLineParser &parser);
int runRecordPackage(const QCommandLineParser &parser);
// A subcommand's --help, its Usage line naming it as typed: "Usage: versus run [options]".
QString commandHelp(const QCommandLineParser &parser, const QString &command);
