#pragma once
// Translates one shopper event into the pipeline a profile engine would send: a dedup check
// on the shopper's processed-events set, then every attribute update with its trims and an
// EXPIRE refresh per written key. The rules are in docs/WORKLOADS.md.
//
// A translator keeps the state an application would: the event ids it has processed (a
// redelivered event yields only the SISMEMBER, as the application stops when it sees 1)
// and the fields of capped category counts. Use a fresh translator for every pass.

#include "attributeconfig.h"
#include "shopperevent.h"
#include "workload.h"
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

class EventTranslator {
public:
    explicit EventTranslator(const AttributeConfig &config);

    // Replaces the content of `out` with the event's commands. Reuses the strings already
    // in `out`, so a caller that keeps one EventCommands avoids most allocations.
    void translate(const ShopperEvent &event, EventCommands &out);
    // What translate() would produce, counted without building the commands (same state
    // changes), for the pre-pass that sizes a workload.
    size_t countCommands(const ShopperEvent &event);

private:
    struct CompiledAttribute {
        const AttributeSpec *spec;
        std::string keySuffix;      // "}:<name>" (":<name>" without the hash tag)
        std::string indexSuffix;    // "}:<name>:buckets" (windowed)
        std::string ttl;            // seconds, as text
        std::string negativeCap;    // "-<cap+1>" for ZREMRANGEBYRANK
        std::string lastIndex;      // "<cap-1>" for LTRIM
    };

    class Writer;
    void translateInto(const ShopperEvent &event, Writer &writer);
    void translateAttribute(const CompiledAttribute &attribute, const ShopperEvent &event, Writer &writer);
    // The aggregation's own commands; false when nothing is written (a capped category count).
    bool writeUpdate(const CompiledAttribute &attribute, const std::string &key, std::string_view text, Writer &writer);
    void writeBucketIndex(const CompiledAttribute &attribute, const ShopperEvent &event, long long bucketStart, Writer &writer);
    bool admitCategory(const std::string &key, std::string_view field, int cap);

    AttributeConfig m_config;
    std::vector<CompiledAttribute> m_attributes;
    std::string m_keyStart;          // "<prefix>:{" ("<prefix>:" without the hash tag)
    std::string m_dedupSuffix;       // "}:processed" (":processed")
    std::string m_dedupTtl;
    std::unordered_set<std::uint64_t> m_processed;   // hashes of shopper id + event id
    std::unordered_map<std::string, std::vector<std::string>> m_categoryFields;
    std::string m_key;               // scratch buffers
    std::string m_indexKey;
    std::string m_value;
};
