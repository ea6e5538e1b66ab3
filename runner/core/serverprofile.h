#pragma once
// Where a server spent its CPU over the untimed profile pass (--profile): perf's cpu-clock
// samples of the server process, each folded by its leaf frame (the function the sample landed
// in, and the binary or library holding it) into a few categories by one table of symbol-name
// rules (serverprofile.cpp). A sample in the server's own binary that perf could not name (a
// stripped build, or a static function a stripped build keeps no name for) is folded by library
// only, into ProfileCategory::Unnamed. How many of the server binary's samples had a name is
// counted, so the build's symbol status is measured, never assumed.

#include <QString>
#include <QStringList>
#include <array>
#include <map>

enum class ProfileCategory {
    CommandExecution,   // the command's own code and the data types' (hsetCommand, hashType*, lp*)
    HashTable,          // key and field lookups (dict*, hashtable*, lookupKey, rehashing, siphash)
    Allocation,         // malloc, free, jemalloc, zmalloc; the kernel's page faults and page clearing
    Networking,         // the kernel's other samples (system calls, sockets, epoll), libc's I/O, the event loop
    RequestParsing,     // reading and parsing requests (readQueryFromClient, processMultibulkBuffer)
    ReplyWriting,       // building and writing replies (addReply*, writeToClient)
    Expiry,             // expiring keys and fields (active and lazy expiry)
    Unnamed,            // the server's own binary, no symbol for the sample: folded by library only
    Other,
};
constexpr int kProfileCategories = 9;

// Every category, in the order the views list them.
const std::array<ProfileCategory, kProfileCategories> &profileCategories();
// The bundle's id ("hash-table") and the label a view shows ("hash table lookups").
QString profileCategoryId(ProfileCategory category);
QString profileCategoryLabel(ProfileCategory category);
bool profileCategoryFromId(const QString &id, ProfileCategory &category);

struct ServerProfile {
    // Samples per category; a category without samples is absent.
    std::map<ProfileCategory, long long> samples;
    long long totalSamples = 0;
    // Of the total: the samples in the server's own binary, and how many of those perf named.
    long long binarySamples = 0;
    long long binaryNamed = 0;
    int rateHz = 0;                          // perf's sampling frequency
    bool userOnly = false;                   // cpu-clock:u: no kernel samples (perf_event_paranoid)
    QString binaryName;                      // "valkey-server": the Unnamed category's library
    // Why there is no profile ("perf is not installed …"); empty when there is one.
    QString unavailable;

    bool recorded() const { return totalSamples > 0; }
    // Nothing recorded and no reason either: a run without --profile, or an older bundle.
    bool empty() const { return totalSamples == 0 && unavailable.isEmpty(); }
    // The share of the server binary's samples perf named, 0–1; 1 with none in the binary.
    double namedShare() const { return binarySamples > 0 ? double(binaryNamed) / double(binarySamples) : 1.0; }
    // "symbols", "stripped: folded by library only" or "partly stripped: 79% of valkey-server's
    // samples named, the rest folded by library" (Debian's build keeps its exported names only).
    QString symbolStatus() const;
    bool hasSymbols() const { return namedShare() >= 0.9; }
    // The label of Unnamed for this build: "valkey-server, no symbols".
    QString unnamedLabel() const;
    // What makes these counts no profile perf could record (a negative count, counts that do
    // not add up to the total, named samples beyond the binary's); empty when none.
    QString problem() const;
};

// Folds `perf script -F ip,sym,dso` output, one sample a line ("  55779dc1952d dictFind
// (/path/valkey-server)"), into categories. `binaryName` is the server executable's file name
// ("valkey-server"): samples in it that perf could not name go to Unnamed. Lines that are no
// sample (blank, perf's warnings) are skipped.
ServerProfile foldPerfSamples(const QString &perfScript, const QString &binaryName);
// One sample's category by its leaf symbol and the binary or library (dso) holding it.
ProfileCategory categoryOfSample(const QString &symbol, const QString &dso, const QString &binaryName);
