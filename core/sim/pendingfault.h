#pragma once

#include "core/sim/faultplan.h"

#include <QString>

namespace Cachescope::Sim {

struct ApiCall;

// PendingFault is the FaultPlan's decision for one read (list, get, watch) while the request is
// served. answerInstead() acts on the faults that take the answer's place (the connection is
// dropped, a 429 with Retry-After, a 5xx) and arms a connection fault (reset, half-open, GOAWAY)
// on the exchange; take() is how a handler claims a fault that it applies where it writes (a
// list body or watch frame cut short, a watch's 410, a stall).
//
// A forced fault that nobody applied goes back to the plan when the PendingFault is destroyed
// (FaultPlan::release, with the reason given): injectNext() promises a fault that happens, not
// one spent on a request that was answered without it (a bad request, a Table). One per request,
// on the server thread; not copyable, since only one of them may hand the fault back.
class PendingFault final
{
    Q_DISABLE_COPY_MOVE(PendingFault)
public:
    PendingFault(FaultPlan *plan, const FaultPlan::Decision &decision, const QString &unusedReason);
    ~PendingFault();

    // Applies a fault that replaces the answer and arms a connection fault; true when the
    // request is answered (or dropped) and its handler must not run.
    [[nodiscard]] bool answerInstead(const ApiCall &call);
    // Whether fault was drawn for this request; if so it counts as injected and is not handed
    // back, so the caller must apply it.
    [[nodiscard]] bool take(FaultPlan::Fault fault);

private:
    FaultPlan *m_plan; // not owned
    FaultPlan::Decision m_decision;
    QString m_unusedReason;
    bool m_applied = false;
};

} // namespace Cachescope::Sim
