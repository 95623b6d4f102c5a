#pragma once

#include "core/kube/apierror.h"
#include "core/kube/apirequest.h"
#include "core/kube/listdecoder.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

namespace Cachescope {

class ApiClient;

// ListPager lists a collection in pages with `limit`/`continue`, like client-go's pager: each
// page is emitted as it arrives with progress (items so far, and the server's
// remainingItemCount), and when a continue token has expired (410) it falls back to one full
// list without a limit, emitting restarted() first so the receiver drops the pages it has.
// Ends with exactly one of finished() (the final resourceVersion) or failed().
//
// Lives on the client's thread; owned by its parent. Cost: one request per page; the page's
// bytes are decoded by a ListDecoder and each item copied once.
class ListPager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ListPager)

public:
    ListPager(ApiClient *client, ApiRequest request, qint64 pageSize = 500, QObject *parent = nullptr);

    void start();
    qint64 itemsSoFar() const { return m_items; }
    int pages() const { return m_pages; }

Q_SIGNALS:
    void pageReceived(const QList<QByteArray> &items);
    // remaining is -1 when the server did not say.
    void progress(qint64 itemsSoFar, qint64 remaining);
    void restarted();
    void finished(const QString &resourceVersion);
    void failed(const Cachescope::ApiError &error);

private:
    void fetch(const QString &continueToken, bool paged);

    QPointer<ApiClient> m_client;
    ApiRequest m_request;
    qint64 m_pageSize;
    qint64 m_items = 0;
    int m_pages = 0;
};

} // namespace Cachescope
