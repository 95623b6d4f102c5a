#include "core/kube/listpager.h"

#include "core/kube/apiclient.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ListPager::ListPager(ApiClient *client, ApiRequest request, qint64 pageSize, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_request(std::move(request))
    , m_pageSize(pageSize)
{
}

void ListPager::start()
{
    m_items = 0;
    m_pages = 0;
    fetch({}, m_pageSize > 0);
}

void ListPager::fetch(const QString &continueToken, bool paged)
{
    if (!m_client) {
        Q_EMIT failed(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    ApiRequest request = m_request;
    if (paged) {
        request.query.removeAllQueryItems(u"limit"_s);
        request.query.addQueryItem(u"limit"_s, QString::number(m_pageSize));
    }
    if (!continueToken.isEmpty()) {
        // A continue token carries its own resourceVersion; the apiserver rejects both.
        request.query.removeAllQueryItems(u"resourceVersion"_s);
        request.query.removeAllQueryItems(u"resourceVersionMatch"_s);
        request.query.addQueryItem(u"continue"_s, QString::fromUtf8(QUrl::toPercentEncoding(continueToken)));
    }
    m_client->send(request, this, [this, continueToken, paged](const ApiResponse &response) {
        if (!response.isOk()) {
            if (response.error.isExpired() && !continueToken.isEmpty()) {
                // client-go's pager: the snapshot behind the token is gone; list everything at
                // once instead of paging from a fresh snapshot that could loop forever.
                m_items = 0;
                m_pages = 0;
                Q_EMIT restarted();
                fetch({}, false);
                return;
            }
            Q_EMIT failed(response.error);
            return;
        }
        auto parsed = ListDecoder::decode(response.body);
        if (const QString *error = std::get_if<QString>(&parsed)) {
            Q_EMIT failed(ApiError(ApiError::Kind::Decode, u"the list answer could not be read: "_s + *error));
            return;
        }
        const ListPage page = std::get<ListPage>(std::move(parsed));
        m_items += page.items.size();
        ++m_pages;
        const QPointer<ListPager> self(this);
        Q_EMIT pageReceived(page.items);
        if (!self) {
            return;
        }
        Q_EMIT progress(m_items, page.remainingItemCount.value_or(page.continueToken.isEmpty() ? 0 : -1));
        if (!self) {
            return;
        }
        if (!page.continueToken.isEmpty() && paged) {
            fetch(page.continueToken, true);
            return;
        }
        Q_EMIT finished(page.resourceVersion);
    });
}

} // namespace Cachescope
