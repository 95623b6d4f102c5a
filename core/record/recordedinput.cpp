#include "core/record/recordedinput.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString RecordedInput::kindName(Kind kind)
{
    switch (kind) {
    case Kind::List:
        return u"list"_s;
    case Kind::ListPage:
        return u"list_page"_s;
    case Kind::ListError:
        return u"list_error"_s;
    case Kind::WatchOpened:
        return u"watch_opened"_s;
    case Kind::WatchEvent:
        return u"watch_event"_s;
    case Kind::Bookmark:
        return u"bookmark"_s;
    case Kind::WatchError:
        return u"watch_error"_s;
    case Kind::WatchEnded:
        return u"watch_ended"_s;
    }
    return {};
}

QList<RecordedInput::Kind> RecordedInput::allKinds()
{
    return {Kind::List, Kind::ListPage, Kind::ListError, Kind::WatchOpened, Kind::WatchEvent, Kind::Bookmark, Kind::WatchError, Kind::WatchEnded};
}

std::optional<RecordedInput::Kind> RecordedInput::kindFromName(const QString &name)
{
    for (const Kind kind : allKinds()) {
        if (kindName(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

} // namespace Cachescope
