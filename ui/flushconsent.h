#pragma once
// The safety rule for endpoints (servers Versus did not launch): they are flushed only when
// the user confirms, after seeing how many keys would be deleted. The default is to refuse.

#include "serverspec.h"
#include <QString>
#include <vector>

class QWidget;

struct EndpointSize {
    QString label;
    QString where;        // host:port
    long long keys = -1;  // DBSIZE, or -1 when it could not be read
    QString error;
};

// Asks every endpoint for DBSIZE over a short-lived connection. Blocks: call it off the GUI thread.
std::vector<EndpointSize> queryEndpointSizes(const std::vector<ServerSpec> &endpoints, int timeoutMs = 3000);

enum class FlushDecision { Refuse, Allow, CancelRun };

// Modal confirmation listing what would be deleted. Refuse is the default button.
FlushDecision askFlushConsent(QWidget *parent, const std::vector<EndpointSize> &sizes, bool hideHosts);
