#pragma once
// `versus run` options: parsed into a RunRequest plus where to write the results.
// Lives in runner/ so it is tested without a window; the export options are parsed by the
// charts library, which this file does not know.

#include "outcome.h"
#include "runrequest.h"
#include "sweepcontroller.h"
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>

struct RunPlan {
    RunRequest request;
    QString bundlePath;      // --out; empty: none
    QString exportDir;       // --export-dir; empty: no charts
    // Said on stderr before the run: what --allow-flush costs each endpoint, which password
    // source is used.
    QStringList notices;
    // --sweep: the points, each with its workload; request.workload is the first point's.
    std::optional<SweepRequest> sweep;
};

// Declares the run options on `parser` (the export options are added by the caller).
void addRunOptions(QCommandLineParser &parser);

// Resolves servers through the catalog and the workload through the factory. Errors name the
// option and value at fault (exit code 2).
Outcome<RunPlan> runPlanFromParser(const QCommandLineParser &parser);
