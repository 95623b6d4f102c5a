#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

namespace Cachescope {

// WatchEvent is one event of a watch stream (metav1.WatchEvent): its type and the object's JSON
// exactly as the server sent it, for the informer layer to decode once with simdjson. For
// Error the object is the server's Status (see ApiError::fromStatus). Malformed is not a
// server event: the decoder produces it for a frame it could not read (decodeError says why),
// so the consumer can count and show it; the stream goes on after it.
// Value type, cheap to copy (implicitly shared bytes).
struct WatchEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error, Malformed };

    Type type = Type::Malformed;
    QByteArray object;
    QString decodeError;

    static QString typeName(Type type);
};

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::WatchEvent)
