#pragma once
// A workload reduced to the commands of one attribute type. Used to check the memory
// attribution: replayed on its own, it must give the same bytes per key as that type's
// figure from the full workload.

#include "workload.h"
#include <memory>

class SingleTypeWorkload : public Workload {
public:
    SingleTypeWorkload(std::shared_ptr<const Workload> inner, QString type);
    WorkloadInfo describe() const override;
    Outcome<std::unique_ptr<CommandSource>> open() const override;

private:
    std::shared_ptr<const Workload> m_inner;
    QString m_type;
    std::string m_typeBytes;
};
