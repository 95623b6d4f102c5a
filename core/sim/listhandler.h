#pragma once

#include "core/sim/listpaginator.h"

namespace Cachescope::Sim {

class ObjectStore;
class PendingFault;
struct ApiCall;
struct ResourceSelector;

// ListHandler serves LIST: the resourceVersion semantics of a list (unset: the latest; "0": any
// version, in one page; an exact older version: 410, as compacted; a future one: 504), the
// selector, limit and continue through its ListPaginator, and the body as the object list,
// PartialObjectMetadataList or Table that Accept asks for. Large pages are streamed as the
// client reads, so the server never holds a second copy of a 100k-object list; a truncation
// drawn for the list cuts its body in half.
//
// Thread: the server thread. Not owning: the store outlives it (ApiServer owns it).
class ListHandler final
{
    Q_DISABLE_COPY_MOVE(ListHandler)
public:
    // tooLargeRetryAfterSeconds: ApiServer::Settings'.
    ListHandler(ObjectStore *store, int continueTtlMs, int tooLargeRetryAfterSeconds);

    void serve(const ApiCall &call, const ResourceSelector &selector, PendingFault &fault);
    // A restart: every continue token expires.
    void forgetContinueTokens() { m_paginator.clear(); }

private:
    // The page the request asks for, or nothing once its error was sent.
    [[nodiscard]] std::optional<ListPaginator::Page> pageOf(const ApiCall &call, const ResourceSelector &selector);
    static void writeTable(const ApiCall &call, const ListPaginator::Page &page, const QJsonObject &metadata);
    static void writeList(const ApiCall &call, const ListPaginator::Page &page, const QJsonObject &metadata, PendingFault &fault);

    ObjectStore *m_store; // not owned
    ListPaginator m_paginator;
    int m_tooLargeRetryAfterSeconds;
};

} // namespace Cachescope::Sim
