#include "core/sim/listpaginator.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

ListPaginator::ListPaginator(int ttlMs)
    : m_ttlMs(ttlMs)
{
}

QString ListPaginator::encodeContinue(const ContinueToken &token)
{
    const QJsonObject json{{u"v"_s, u"meta.k8s.io/v1"_s},
                           {u"rv"_s, QString::number(token.resourceVersion)},
                           {u"start"_s, token.start},
                           {u"snapshot"_s, QString::number(token.snapshot)},
                           {u"offset"_s, token.offset}};
    return QString::fromLatin1(QJsonDocument(json).toJson(QJsonDocument::Compact).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<ListPaginator::ContinueToken> ListPaginator::decodeContinue(const QString &text)
{
    const QByteArray json = QByteArray::fromBase64(text.toLatin1(), QByteArray::Base64UrlEncoding);
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    if (object.value(u"v").toString() != u"meta.k8s.io/v1")
        return std::nullopt;
    ContinueToken token;
    token.snapshot = object.value(u"snapshot").toString().toULongLong();
    token.offset = object.value(u"offset").toInteger();
    token.resourceVersion = object.value(u"rv").toString().toULongLong();
    token.start = object.value(u"start").toString();
    if (token.offset < 0)
        return std::nullopt;
    return token;
}

ListPaginator::Page ListPaginator::firstPage(const QList<ObjectPtr> &items, quint64 resourceVersion, qsizetype limit, bool countRemaining)
{
    prune();
    Snapshot snapshot;
    snapshot.items = items;
    snapshot.resourceVersion = resourceVersion;
    snapshot.age.start();
    const quint64 id = m_nextSnapshot++;
    m_snapshots.insert(id, snapshot);
    return page(id, 0, limit, countRemaining);
}

std::variant<ListPaginator::Page, ApiError> ListPaginator::nextPage(const QString &continueToken, qsizetype limit, bool countRemaining)
{
    prune();
    const std::optional<ContinueToken> token = decodeContinue(continueToken);
    if (!token)
        return ApiError::badRequest(u"continue key is not valid: invalid continue token"_s);
    if (!m_snapshots.contains(token->snapshot)) {
        return ApiError::expired(u"The provided continue parameter is too old to display a consistent list result. You can start a new list "
                                 u"without the continue parameter, or use the continue token in this response to retrieve the remainder "
                                 u"of the results. Continuing with the provided token results in an inconsistent list - objects that "
                                 u"were created, modified, or deleted between the time the first chunk was returned and now may show up "
                                 u"in the list."_s);
    }
    return page(token->snapshot, token->offset, limit, countRemaining);
}

ListPaginator::Page ListPaginator::page(quint64 snapshotId, qsizetype offset, qsizetype limit, bool countRemaining)
{
    const Snapshot &snapshot = m_snapshots[snapshotId];
    const qsizetype total = snapshot.items.size();
    const qsizetype end = limit > 0 ? qMin(total, offset + limit) : total;
    Page result;
    result.resourceVersion = snapshot.resourceVersion;
    if (end < total) {
        result.continueToken = encodeContinue({snapshotId, end, snapshot.resourceVersion, snapshot.items.at(end)->key()});
        if (countRemaining)
            result.remainingItemCount = total - end;
    }
    result.items = snapshot.items.mid(offset, end - offset);
    if (end >= total)
        m_snapshots.remove(snapshotId);
    return result;
}

void ListPaginator::prune()
{
    for (auto it = m_snapshots.begin(); it != m_snapshots.end();) {
        if (it->age.elapsed() > m_ttlMs)
            it = m_snapshots.erase(it);
        else
            ++it;
    }
    // A bound on memory whatever the TTL: the oldest consistent views go first (their tokens
    // then expire early, which clients must handle anyway).
    while (m_snapshots.size() > MaxSnapshots) {
        auto oldest = m_snapshots.begin();
        for (auto it = m_snapshots.begin(); it != m_snapshots.end(); ++it) {
            if (it.key() < oldest.key())
                oldest = it;
        }
        m_snapshots.erase(oldest);
    }
}

} // namespace Cachescope::Sim
