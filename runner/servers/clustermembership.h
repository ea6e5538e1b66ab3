#pragma once
// Whether a server a cluster node named is a member of that node's cluster. CLUSTER SHARDS and
// SLOTS say what a node believes: a stale gossip entry, a wrong cluster-announce-ip or port, or a
// fake node can name a server that belongs to no cluster, or to another one. Before Versus sends
// it the password, a command or a line of the consent, the named server proves itself: it runs
// in cluster mode, answers as the node id it was named by, and knows the node the user named.
// And a server the user did not name gets no password, even when it asks for one, unless the
// user allows it (--allow-cluster-auth): an address a node names may be anyone's.

#include "clustertopology.h"
#include "credentials.h"
#include "outcome.h"
#include "tlssettings.h"
#include <QString>

struct MembershipProof {
    QString askedWhere;   // "127.0.0.1:7000": the node the user named
    QString askedId;      // its CLUSTER MYID
    Credentials login;    // the endpoint's, sent only to a server that asks for one and may have it
    bool loginToOthers = false;   // the user allows sending it to primaries other than the one named
    int timeoutMs = 3000;
    TlsSettings tls;      // how the cluster is reached
};

// The login `primary` may be sent: the endpoint's when it is the node the user named (the one
// asked, at the address as typed: a node typed as localhost that announces 127.0.0.1 is not)
// or the user allows it for the others; none otherwise.
Credentials clusterNodeLogin(const ClusterPrimary &primary, const MembershipProof &proof);
// How a user allows it, for messages: the option and the window's box.
QString howToAllowClusterAuth();

// Connects to `primary` and checks it is a member of the asked node's cluster. Asks INFO
// cluster, CLUSTER MYID and CLUSTER NODES, nothing else; AUTH only when the server answers that
// it needs a password (a server that needs none never sees it) and clusterNodeLogin() gives one. The error names the server and
// the node that named it.
Status proveClusterMember(const ClusterPrimary &primary, const MembershipProof &proof);
// Every primary of `topology`, in order; the first that fails stops it.
Status proveClusterMembers(const ClusterTopology &topology, const MembershipProof &proof);
