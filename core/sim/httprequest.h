#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace Cachescope::Sim {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

// HttpRequest is one parsed request as HttpConnection (HTTP/1.1) or Http2Session (HTTP/2, one
// per stream) hands it to its handler. A plain value: header names are lower-cased, the path is
// percent-decoded, the query kept as QUrlQuery. Cheap to copy (implicitly shared members).
struct HttpRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;

    [[nodiscard]] QByteArray header(const QByteArray &lowerCaseName) const { return headers.value(lowerCaseName); }
    [[nodiscard]] QString queryValue(const QString &key) const { return query.queryItemValue(key, QUrl::FullyDecoded); }
    [[nodiscard]] bool hasQuery(const QString &key) const { return query.hasQueryItem(key); }

    // Sets path and query from a request target ("/api/v1/pods?limit=5"), the same for the
    // HTTP/1.1 request line and the HTTP/2 :path.
    void setTarget(const QByteArray &target);
};

} // namespace Cachescope::Sim
