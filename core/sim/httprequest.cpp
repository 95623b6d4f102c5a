#include "core/sim/httprequest.h"

#include <QUrl>

namespace Cachescope::Sim {

void HttpRequest::setTarget(const QByteArray &target)
{
    const qsizetype question = target.indexOf('?');
    const QUrl url = QUrl::fromEncoded(question < 0 ? target : target.left(question));
    path = url.path(QUrl::FullyDecoded);
    query = QUrlQuery();
    if (question >= 0) {
        // Form encoding, which Go and Python clients use for queries, writes a space as '+';
        // QUrlQuery would keep it as a plus sign.
        QByteArray encoded = target.mid(question + 1);
        encoded.replace('+', "%20");
        query = QUrlQuery(QString::fromLatin1(encoded));
    }
}

} // namespace Cachescope::Sim
