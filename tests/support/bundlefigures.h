#pragma once
// Tests that start from a bundle build its Figures here, as `versus export` does (one Figures
// with the export's options, figureOptionsOf()); the charts library itself only takes a Figures.

#include "chartdata.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "whyexport.h"

inline std::vector<ChartKind> chartKindsOf(const ResultsBundle &bundle)
{
    return chartKindsOf(Figures(bundle));
}
inline ChartData buildChartData(const ResultsBundle &bundle, ChartKind kind, const ChartDataOptions &options = {})
{
    return buildChartData(Figures(bundle), kind, options);
}
inline std::optional<ChartHeadline> chartHeadline(const ResultsBundle &bundle, ChartKind kind)
{
    return chartHeadline(Figures(bundle), kind);
}
inline QString defaultChartTitle(const ResultsBundle &bundle, ChartKind kind)
{
    return defaultChartTitle(Figures(bundle), kind);
}
inline QString defaultChartSubtitle(const ResultsBundle &bundle, ChartKind kind)
{
    return defaultChartSubtitle(Figures(bundle), kind);
}
inline Outcome<QImage> renderChart(const ResultsBundle &bundle, ChartKind kind, const ExportOptions &options,
                                   ChartGeometry *geometry = nullptr)
{
    return renderChart(Figures(bundle), kind, options, geometry);
}
inline QStringList legibilityProblems(const ResultsBundle &bundle, ChartKind kind, const ExportOptions &options)
{
    return legibilityProblems(Figures(bundle), kind, options);
}
inline ExportOptions fittedOptions(const ResultsBundle &bundle, ChartKind kind, const ExportOptions &options)
{
    return fittedOptions(Figures(bundle), kind, options);
}
inline Status exportChart(const ResultsBundle &bundle, ChartKind kind, const ExportOptions &options, const QString &path,
                          PathOrigin origin = PathOrigin::NamedByUser)
{
    return exportChart(Figures(bundle), kind, options, path, origin);
}
inline Outcome<QStringList> exportAll(const ResultsBundle &bundle, const QString &dir, const ExportOptions &options)
{
    return exportAll(Figures(bundle), dir, options);
}
inline Outcome<QStringList> exportCharts(const ResultsBundle &bundle, const std::vector<ChartKind> &kinds, const QString &dir,
                                         const ExportOptions &options)
{
    return exportCharts(Figures(bundle), kinds, dir, options);
}
inline Outcome<QImage> renderWhyChart(const ResultsBundle &bundle, const QString &categoryId, const ExportOptions &options,
                                      WhyGeometry *geometry = nullptr)
{
    return renderWhyChart(Figures(bundle), categoryId, options, geometry);
}
