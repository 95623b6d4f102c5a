#include "core/kube/listpager.h"

#include "core/kube/apiclient.h"

#include <simdjson.h>

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
        auto parsed = parsePage(response.body);
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

std::variant<ListPage, QString> ListPager::parsePage(const QByteArray &body)
{
    thread_local simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(body.constData(), size_t(body.size()));
    simdjson::ondemand::document document;
    if (parser.iterate(padded).get(document)) {
        return u"not JSON"_s;
    }
    simdjson::ondemand::object root;
    if (document.get_object().get(root)) {
        return u"not a JSON object"_s;
    }
    ListPage page;
    bool sawItems = false;
    for (auto field : root) {
        std::string_view key;
        if (field.unescaped_key().get(key)) {
            return u"malformed key"_s;
        }
        if (key == "metadata") {
            simdjson::ondemand::object metadata;
            if (field.value().get_object().get(metadata)) {
                return u"metadata is not an object"_s;
            }
            for (auto meta : metadata) {
                std::string_view metaKey;
                if (meta.unescaped_key().get(metaKey)) {
                    return u"malformed key"_s;
                }
                std::string_view text;
                if (metaKey == "resourceVersion" && !meta.value().get_string().get(text)) {
                    page.resourceVersion = QString::fromUtf8(text.data(), qsizetype(text.size()));
                } else if (metaKey == "continue" && !meta.value().get_string().get(text)) {
                    page.continueToken = QString::fromUtf8(text.data(), qsizetype(text.size()));
                } else if (metaKey == "remainingItemCount") {
                    int64_t remaining = 0;
                    if (!meta.value().get_int64().get(remaining)) {
                        page.remainingItemCount = remaining;
                    }
                }
            }
        } else if (key == "items") {
            sawItems = true;
            simdjson::ondemand::value items = field.value();
            if (items.is_null()) {
                continue; // "items": null is an empty list from some servers
            }
            simdjson::ondemand::array array;
            if (items.get_array().get(array)) {
                return u"items is not a list"_s;
            }
            for (auto item : array) {
                simdjson::ondemand::object object;
                std::string_view raw;
                if (item.get_object().get(object) || object.raw_json().get(raw)) {
                    return u"an item is not an object"_s;
                }
                page.items.append(QByteArray(raw.data(), qsizetype(raw.size())));
            }
        }
    }
    if (!sawItems) {
        return u"it has no items"_s;
    }
    return page;
}

} // namespace Cachescope
