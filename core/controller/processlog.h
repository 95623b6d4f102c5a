#pragma once

#include "core/controller/processrecord.h"
#include "core/util/sequencedring.h"

namespace Cachescope {

// ProcessLog is a controller's feed of ProcessRecords: the latest attempts in a SequencedRing,
// which readers (the timeline's hover, the CLI, tests) drain with since(), like the workqueue's
// QueueEventLog beside it. Workers append.
class ProcessLog final : public SequencedRing<ProcessRecord>
{
public:
    static constexpr qsizetype DefaultCapacity = 8192;

    // A capacity of 0 disables the log.
    explicit ProcessLog(qsizetype capacity = DefaultCapacity)
        : SequencedRing(capacity)
    {
    }
};

} // namespace Cachescope
