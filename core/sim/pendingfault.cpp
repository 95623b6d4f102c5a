#include "core/sim/pendingfault.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/httpexchange.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

HttpExchange::ConnectionFault connectionFaultOf(FaultPlan::Fault fault)
{
    switch (fault) {
    case FaultPlan::Fault::HalfOpen:
        return HttpExchange::ConnectionFault::HalfOpen;
    case FaultPlan::Fault::GoAway:
        return HttpExchange::ConnectionFault::GoAway;
    default:
        return HttpExchange::ConnectionFault::Reset;
    }
}

} // namespace

PendingFault::PendingFault(FaultPlan *plan, const FaultPlan::Decision &decision, const QString &unusedReason)
    : m_plan(plan)
    , m_decision(decision)
    , m_unusedReason(unusedReason)
{
}

PendingFault::~PendingFault()
{
    if (!m_applied)
        m_plan->release(m_decision, m_unusedReason);
}

bool PendingFault::answerInstead(const ApiCall &call)
{
    if (m_decision.connectionFault) {
        // The request is served; the connection under it is what the fault acts on.
        m_plan->recordInjected(*m_decision.connectionFault);
        call.exchange->injectConnectionFault(connectionFaultOf(*m_decision.connectionFault), m_decision.goAwayGraceMs);
    }
    if (!m_decision.fault)
        return false;
    switch (*m_decision.fault) {
    case FaultPlan::Fault::Drop:
        m_plan->recordInjected(FaultPlan::Fault::Drop);
        m_applied = true;
        call.exchange->abort();
        return true;
    case FaultPlan::Fault::Throttle:
        m_plan->recordInjected(FaultPlan::Fault::Throttle);
        m_applied = true;
        call.sendError(ApiError::tooManyRequests(m_decision.retryAfterSeconds));
        return true;
    case FaultPlan::Fault::ServerError:
        m_plan->recordInjected(FaultPlan::Fault::ServerError);
        m_applied = true;
        if (m_decision.errorCode == 503) {
            call.sendError(ApiError::unavailable(u"the server is currently unable to handle the request (injected fault)"_s));
        } else {
            ApiError error = ApiError::internal(u"an error on the server (\"injected fault\") has prevented the request from succeeding"_s);
            error.code = m_decision.errorCode >= 500 && m_decision.errorCode < 600 ? m_decision.errorCode : 500;
            call.sendError(error);
        }
        return true;
    case FaultPlan::Fault::Truncate:
    case FaultPlan::Fault::Gone:
    case FaultPlan::Fault::Stall:
        // Applied where the response is written (list body, watch stream): see take().
        return false;
    case FaultPlan::Fault::Latency:
    case FaultPlan::Fault::Restart:
    case FaultPlan::Fault::Reset:
    case FaultPlan::Fault::HalfOpen:
    case FaultPlan::Fault::GoAway:
        return false;
    }
    return false;
}

bool PendingFault::take(FaultPlan::Fault fault)
{
    if (m_decision.fault != fault)
        return false;
    m_plan->recordInjected(fault);
    m_applied = true;
    return true;
}

} // namespace Cachescope::Sim
