#pragma once
// The safety rule for endpoints (servers Versus did not launch): a run uses them only when the
// user confirms, after reading what cannot be undone (every database's keys, counted one by
// one, and the statistics reset). The default is to refuse.

#include "endpointprobe.h"
#include "serverspec.h"
#include <QString>
#include <optional>
#include <vector>

class QWidget;

struct EndpointSize {
    QString label;
    QString where;        // host:port, [::1]:port
    long long keys = -1;  // keys over every database, or -1 when they could not be counted
    QString holds;        // "db0: 2 keys, db3: 1 key" (endpointconsent.h's keysLost)
    QString error;
    std::optional<EndpointProbe> probe;   // its run_id tells one server named twice apart
};

// Asks every endpoint who it is and what it holds over a short-lived connection. Blocks: call
// it off the GUI thread.
std::vector<EndpointSize> queryEndpointSizes(const std::vector<ServerSpec> &endpoints, int timeoutMs = 3000);

enum class FlushDecision { Refuse, Allow, CancelRun };

// The confirmation's text (rich text): what each endpoint loses, database by database, and
// what else cannot be undone.
QString flushConsentText(const std::vector<EndpointSize> &sizes, bool hideHosts);

// Modal confirmation showing flushConsentText(). Refuse is the default button.
FlushDecision askFlushConsent(QWidget *parent, const std::vector<EndpointSize> &sizes, bool hideHosts);
