#pragma once
// The attribute configuration of the e-commerce workload (docs/WORKLOADS.md): which
// attributes a profile keeps, how each aggregates which event property, and for how long.

#include "outcome.h"
#include "shopperevent.h"
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <string>
#include <utility>
#include <vector>

enum class Aggregation {
    Counter,
    Sum,
    Mean,
    Min,
    Max,
    First,
    Last,
    CategoryCount,
    ApproxCountDistinct,
    UniqueList,
    MostFrequent,
};

// Event properties an attribute can read. Numeric ones are integers (cents, ms, counts).
enum class EventProperty {
    None,
    EventId,
    SessionId,
    Timestamp,
    Type,
    ProductId,
    ProductName,
    ProductCategory,
    ProductBrand,
    ProductPrice,
    ProductCurrency,
    CartTotal,
    CheckoutStep,
    TransactionId,
    TransactionRevenue,
    TransactionItemCount,
    PageUrl,
    PageReferrer,
    PageUtmSource,
    PageUtmMedium,
    PageUtmCampaign,
};

bool isNumericProperty(EventProperty property);

struct AttributeSpec {
    std::string name;
    std::string group;
    Aggregation aggregation = Aggregation::Counter;
    EventProperty property = EventProperty::None;
    unsigned eventTypes = 0;         // bit (1 << int(ShopperEventType)) per type read
    bool windowed = false;
    long long ttlSeconds = 0;
    long long windowSeconds = 0;     // windowed only
    long long bucketSeconds = 0;     // windowed only
    int cap = 100;                   // category_count, unique_list, most_frequent
    int categoryDepth = 0;           // category_count: path levels kept; 0 = the whole path
    std::string type;                // memory-breakdown type of the keys it writes

    bool reads(ShopperEventType eventType) const { return eventTypes & (1u << int(eventType)); }
};

struct AttributeGroup {
    std::string name;
    std::string description;
};

struct AttributeConfig {
    std::string keyPrefix = "p";
    // Keys are "<prefix>:{<shopper>}:<attribute>": the shopper part is a cluster hash tag, so a
    // shopper's keys share a slot. Not read from the file: --set hash-tag=none clears it
    // ("<prefix>:<shopper>:<attribute>", each key hashed whole).
    bool hashTagPerShopper = true;
    long long dedupTtlSeconds = 30LL * 24 * 3600;
    std::vector<AttributeGroup> groups;
    std::vector<AttributeSpec> attributes;
    // "command_groups": the configuration's own names for groups of the commands the translator
    // sends ("writes": INCRBY, ZADD, …); empty: the translator's three (ecommerceworkload.cpp).
    std::vector<std::pair<QString, QStringList>> commandGroups;

    // The memory-breakdown types this configuration writes, most important first,
    // "dedup" (the processed-events sets) last.
    QStringList types() const;
};

// The commands the translator sends (eventtranslator.cpp), upper case: what a command group
// may name.
const QStringList &translatorCommands();

// Parses and validates a configuration. `fileName` prefixes every error, which names the
// JSON path at fault: "attributes.json: attributes[3].aggregation: unknown aggregation 'avg'".
Outcome<AttributeConfig> parseAttributeConfig(const QByteArray &json, const QString &fileName);
// Reads a file (or a ":/…" resource) and parses it.
Outcome<AttributeConfig> loadAttributeConfig(const QString &path);

// The memory-breakdown type of an aggregation ("counter", "min_max", …); "windowed" for windows.
const char *aggregationTypeName(Aggregation aggregation, bool windowed);
