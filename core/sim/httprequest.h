#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace Cachescope::Sim {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

// HttpRequest is one parsed HTTP/1.1 request as HttpConnection hands it to its handler.
// A plain value: header names are lower-cased, the path is percent-decoded, the query kept as
// QUrlQuery. Cheap to copy (implicitly shared members).
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
};

} // namespace Cachescope::Sim
