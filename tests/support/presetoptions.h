#pragma once
// Export options at one of the named size presets (exportoptions.h), for the chart tests.

#include "exportoptions.h"

#include <QString>
#include <optional>

inline ExportOptions presetOptions(const QString &name)
{
    ExportOptions options;
    const std::optional<SizePreset> preset = findSizePreset(name);
    options.size = preset->size;
    options.dpi = preset->dpi;
    return options;
}
