#pragma once
// What a server Versus did not launch kept it from doing for its figures: a managed service
// refuses or renames CONFIG (settings live in its console), so Versus can neither turn latency
// tracking off nor reset the statistics. Each limit holds the server's refusal as it worded it
// (shortened and quoted for messages); empty: not a limit. How each is measured around it is in
// docs/MEASUREMENT.md ("Restricted endpoints").

#include <QString>
#include <QStringList>

struct MeasurementLimits {
    // CONFIG GET refused: no settings recorded, none changed, none to put back.
    QString settingsUnread;
    // latency-tracking could not be turned off (CONFIG refused): it stays as its owner has it,
    // and the workload runs once before the first baseline so that every command's histogram
    // is allocated before any figure is read.
    QString trackingLeftOn;
    // CONFIG RESETSTAT not sent (latency tracking stays on: a reset would free the histograms
    // mid-run) or refused: server time is read as the difference of commandstats over each pass.
    QString statsNotReset;

    // latency-tracking missing from CONFIG GET * (a proxy or a managed service that filters
    // CONFIG, or a server before Redis 7.0): its state is unknown, so it is taken as on.
    static QString trackingUnknownText()
    {
        return QStringLiteral("CONFIG GET * did not list latency-tracking: its state is unknown, taken as on");
    }
    bool trackingUnknown() const { return trackingLeftOn == trackingUnknownText(); }

    bool any() const { return !settingsUnread.isEmpty() || !trackingLeftOn.isEmpty() || !statsNotReset.isEmpty(); }
    bool needsWarming() const { return !trackingLeftOn.isEmpty(); }
    bool statsByDifference() const { return !statsNotReset.isEmpty(); }
    // Each limit a node of a cluster had, kept when another node had none.
    void add(const MeasurementLimits &other);
    // What the figures are then, for the log and a report: "CONFIG GET refused (…): settings not
    // recorded; latency tracking left on, its histograms allocated before the first baseline;
    // server time from commandstats differences, statistics not reset".
    QStringList describe() const;
    bool operator==(const MeasurementLimits &other) const
    {
        return settingsUnread == other.settingsUnread && trackingLeftOn == other.trackingLeftOn
               && statsNotReset == other.statsNotReset;
    }
};
