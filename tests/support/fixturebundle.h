#pragma once
// A results bundle from tests/fixtures/bundles/, for tests that read figures, charts and
// exports without running anything. A fixture that does not load is the test's own defect:
// it stops the test with the loader's message.

#include "bundlejson.h"

#include <QString>
#include <QtGlobal>

// The hash-ttl bundle of three versions, by path, for tests that hand it to the versus program.
inline constexpr char kHashTtlFixtureBundle[] = VERSUS_FIXTURES "/bundles/hash-ttl-3-versions.json";

inline ResultsBundle fixtureBundle(const QString &name)
{
    const Outcome<ResultsBundle> bundle = loadBundle(QStringLiteral(VERSUS_FIXTURES "/bundles/") + name);
    if (!bundle)
        qFatal("%s", qPrintable(bundle.error()));
    return bundle.value();
}

inline ResultsBundle fixtureBundle(const char *name)
{
    return fixtureBundle(QString::fromLatin1(name));
}
