#pragma once
// The e-commerce profile workload: shopper events (a JSON Lines recording, the built-in one,
// or generated on the fly) translated into profile-engine pipelines by an attribute config.

#include "attributeconfig.h"
#include "eventgenerator.h"
#include "workload.h"
#include <QString>
#include <mutex>
#include <optional>

class EcommerceWorkload : public Workload {
public:
    // Replays a recording: a JSON Lines file or a ":/…" resource. `displayName` is how
    // errors and the results name the file ("ecommerce-events.jsonl" for the built-in one).
    static std::shared_ptr<EcommerceWorkload> fromRecording(const QString &path, const QString &displayName,
                                                            const AttributeConfig &config,
                                                            const QString &attributesName);
    // Replays events made by the generator; nothing is written to disk.
    static std::shared_ptr<EcommerceWorkload> fromGenerator(const GeneratorOptions &options,
                                                            const AttributeConfig &config,
                                                            const QString &attributesName);

    WorkloadInfo describe() const override;
    Outcome<std::unique_ptr<CommandSource>> open() const override;

    // Counts events and commands of one pass (the first call walks the stream once).
    // Fails when the recording has an error; describe() then reports zero counts.
    Status countPass() const;

private:
    EcommerceWorkload() = default;

    QString m_path;                   // empty when generated
    QString m_displayName;
    std::optional<GeneratorOptions> m_generator;
    AttributeConfig m_config;
    QString m_attributesName;
    mutable std::mutex m_mutex;
    mutable bool m_counted = false;
    mutable Status m_countStatus;
    mutable WorkloadInfo m_description;
};
