#include "core/sim/listhandler.h"

#include "core/sim/apicall.h"
#include "core/sim/contentnegotiation.h"
#include "core/sim/httpexchange.h"
#include "core/sim/objectstore.h"
#include "core/sim/pendingfault.h"
#include "core/sim/resourceselector.h"
#include "core/sim/tableconverter.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

QByteArray toJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

ListHandler::ListHandler(ObjectStore *store, int continueTtlMs, int tooLargeRetryAfterSeconds)
    : m_store(store)
    , m_paginator(continueTtlMs)
    , m_tooLargeRetryAfterSeconds(tooLargeRetryAfterSeconds)
{
}

void ListHandler::serve(const ApiCall &call, const ResourceSelector &selector, PendingFault &fault)
{
    const std::optional<ListPaginator::Page> page = pageOf(call, selector);
    if (!page)
        return;
    QJsonObject metadata{{u"resourceVersion"_s, QString::number(page->resourceVersion)}};
    if (!page->continueToken.isEmpty())
        metadata.insert(u"continue"_s, page->continueToken);
    if (page->remainingItemCount)
        metadata.insert(u"remainingItemCount"_s, *page->remainingItemCount);
    if (ContentNegotiation::of(call.request).representation == ContentNegotiation::Representation::Table)
        writeTable(call, *page, metadata);
    else
        writeList(call, *page, metadata, fault);
}

std::optional<ListPaginator::Page> ListHandler::pageOf(const ApiCall &call, const ResourceSelector &selector)
{
    const HttpRequest &request = call.request;
    const QString rvParam = request.queryValue(u"resourceVersion"_s);
    const QString rvMatch = request.queryValue(u"resourceVersionMatch"_s);
    const QString continueParam = request.queryValue(u"continue"_s);
    qsizetype limit = request.queryValue(u"limit"_s).toLongLong();
    if (limit < 0)
        limit = 0;
    if (!rvMatch.isEmpty() && rvMatch != u"NotOlderThan" && rvMatch != u"Exact") {
        call.sendError(ApiError::badRequest(u"resourceVersionMatch: Unsupported value: \"%1\""_s.arg(rvMatch)));
        return std::nullopt;
    }
    if (!rvMatch.isEmpty() && rvParam.isEmpty()) {
        call.sendError(ApiError::badRequest(u"resourceVersionMatch is forbidden unless resourceVersion is provided"_s));
        return std::nullopt;
    }
    if (!continueParam.isEmpty() && !rvParam.isEmpty()) {
        call.sendError(ApiError::badRequest(u"specifying resource version is not allowed when using continue"_s));
        return std::nullopt;
    }

    // The apiserver leaves remainingItemCount out of a filtered list: it cannot count what
    // matches without reading it all.
    const bool countRemaining = selector.isEmpty();
    if (!continueParam.isEmpty()) {
        std::variant<ListPaginator::Page, ApiError> next = m_paginator.nextPage(continueParam, limit, countRemaining);
        if (const auto *error = std::get_if<ApiError>(&next)) {
            call.sendError(*error);
            return std::nullopt;
        }
        return std::get<ListPaginator::Page>(std::move(next));
    }
    const quint64 current = m_store->resourceVersion();
    bool rvOk = true;
    const quint64 requested = rvParam.isEmpty() ? 0 : rvParam.toULongLong(&rvOk);
    if (!rvOk) {
        call.sendError(ApiError::badRequest(u"resourceVersion: Invalid value: \"%1\": must be a non-negative integer"_s.arg(rvParam)));
        return std::nullopt;
    }
    // resourceVersion="0" is "any version" and is served from the watch cache, which
    // ignores limit: the whole list comes back in one page.
    if (rvParam == u"0" && rvMatch != u"Exact")
        limit = 0;
    if (requested > current) {
        call.sendError(ApiError::tooLargeResourceVersion(requested, current, m_tooLargeRetryAfterSeconds));
        return std::nullopt;
    }
    // An exact older version would need etcd's history; we keep none for lists, so it is
    // treated as compacted, which the apiserver also answers with 410.
    const bool exact = rvMatch == u"Exact" || (rvMatch.isEmpty() && limit > 0 && requested != 0);
    if (exact && requested != 0 && requested != current) {
        call.sendError(ApiError::expired(u"too old resource version: %1 (%2)"_s.arg(requested).arg(current)));
        return std::nullopt;
    }
    QList<ObjectPtr> matching = m_store->list(call.route.type, call.route.namespaceName);
    if (!selector.isEmpty()) {
        matching.removeIf([&selector](const ObjectPtr &object) { return !selector.matches(*object); });
    }
    return m_paginator.firstPage(matching, current, limit, countRemaining);
}

void ListHandler::writeTable(const ApiCall &call, const ListPaginator::Page &page, const QJsonObject &metadata)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const TableConverter::IncludeObject includeObject = ContentNegotiation::includeObject(call.request);
    QJsonArray rows;
    for (const ObjectPtr &object : page.items)
        rows.append(TableConverter::row(call.route.type, QJsonDocument::fromJson(object->json).object(), includeObject, now));
    call.sendJson(200, TableConverter::table(call.route.type, rows, true, metadata), "application/json;as=Table;v=v1;g=meta.k8s.io");
}

void ListHandler::writeList(const ApiCall &call, const ListPaginator::Page &page, const QJsonObject &metadata, PendingFault &fault)
{
    const ResourceType &type = call.route.type;
    const bool metadataOnly = ContentNegotiation::of(call.request).representation == ContentNegotiation::Representation::Metadata;
    QByteArray head;
    QByteArray contentType = "application/json";
    if (metadataOnly) {
        head = "{\"kind\":\"PartialObjectMetadataList\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":" + toJson(metadata) + ",\"items\":[";
        contentType = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io";
    } else {
        head = "{\"kind\":\"" + type.listKind().toLatin1() + "\",\"apiVersion\":\"" + type.groupVersion().toLatin1() + "\",\"metadata\":" + toJson(metadata) +
            ",\"items\":[";
    }
    auto render = [metadataOnly](const ObjectPtr &object) -> QByteArray {
        if (!metadataOnly)
            return object->json;
        return toJson(TableConverter::partialObjectMetadata(QJsonDocument::fromJson(object->json).object()));
    };
    const QList<ObjectPtr> items = page.items;

    if (fault.take(FaultPlan::Fault::Truncate)) {
        // The head promises the whole body; about half of it arrives, then EOF.
        QByteArray body = head;
        for (qsizetype i = 0; i < items.size(); ++i)
            body += (i ? "," : "") + render(items.at(i));
        body += "]}";
        const QByteArray response = "HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        call.exchange->writeRawAndAbort(response + body.left(body.size() / 2));
        return;
    }

    // Small pages are one buffer; big ones (a 100k-pod list) are streamed as the socket drains,
    // so the server never holds a second copy of the whole list.
    constexpr qsizetype StreamThreshold = 2000;
    if (items.size() <= StreamThreshold) {
        qsizetype size = head.size() + 2;
        for (const ObjectPtr &object : items)
            size += object->json.size() + 1;
        QByteArray body;
        body.reserve(size);
        body += head;
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (i)
                body += ',';
            body += render(items.at(i));
        }
        body += "]}";
        call.exchange->sendResponse(200, contentType, body);
        return;
    }
    auto position = std::make_shared<qsizetype>(-1);
    call.exchange->streamResponse(200, contentType, [items, head, position, render]() -> QByteArray {
        if (*position < 0) {
            *position = 0;
            return head;
        }
        if (*position > items.size())
            return {};
        if (*position == items.size()) {
            ++*position;
            return QByteArrayLiteral("]}");
        }
        // Batches stay below glibc's mmap threshold (128 KiB): bigger buffers are mapped and
        // unmapped each time, and the page faults cost more than the copying.
        constexpr qsizetype BatchBytes = 96 * 1024;
        QByteArray batch;
        batch.reserve(BatchBytes + 16 * 1024);
        while (*position < items.size() && batch.size() < BatchBytes) {
            if (*position > 0)
                batch += ',';
            batch += render(items.at(*position));
            ++*position;
        }
        return batch;
    });
}

} // namespace Cachescope::Sim
