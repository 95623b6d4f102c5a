#include "core/record/replaylisterwatcher.h"

#include "core/cache/keys.h"
#include "core/record/recordingreader.h"
#include "core/record/replayplayer_p.h"
#include "core/record/replaywatchsession_p.h"

#include <QPointer>
#include <QSet>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

ObjectListPage pageOf(const RecordedInput &input)
{
    ObjectListPage page;
    if (input.kind == RecordedInput::Kind::ListError) {
        page.error = input.error;
        return page;
    }
    page.items = input.items;
    page.resourceVersion = input.resourceVersion;
    page.continueToken = input.continueToken;
    page.remainingItemCount = input.remaining;
    return page;
}

} // namespace

ReplayListerWatcher::ReplayListerWatcher(const RecordingReader &reader, qint64 informerId, const Options &options)
    : m_player(std::make_shared<ReplayPlayer>())
{
    m_player->stopSeq = options.stopSeq;
    m_player->speed = options.speed;
    qint64 from = 0;
    if (options.startSeq) {
        m_player->cache = reader.stateAt(informerId, *options.startSeq);
        m_player->syntheticFirstList = true;
        // A list in progress at the start instant is replayed from its beginning: its pages are
        // not in the state yet, and the reflector needs all of them.
        from = m_player->cache.isListing() ? m_player->cache.listStartSeq() : *options.startSeq + 1;
        m_player->position.store(*options.startSeq);
    }
    m_player->inputs = reader.inputs(informerId, from);
}

ReplayListerWatcher::~ReplayListerWatcher() = default;

qint64 ReplayListerWatcher::position() const
{
    return m_player->position.load();
}

bool ReplayListerWatcher::isFinished() const
{
    return m_player->finished.load();
}

void ReplayListerWatcher::setFinishedCallback(std::function<void()> callback)
{
    m_player->finishedCallback = std::move(callback);
}

qsizetype ReplayListerWatcher::inputCount() const
{
    return m_player->inputs.size();
}

void ReplayListerWatcher::list(const ListOptions &options, QObject *context, ListCallback done)
{
    using Kind = RecordedInput::Kind;
    ReplayPlayer &player = *m_player;
    const auto answer = [context = QPointer<QObject>(context), done, player = m_player](const ObjectListPage &page, qint64 delayMs) {
        if (!context) {
            return;
        }
        QTimer::singleShot(std::chrono::milliseconds(delayMs), Qt::PreciseTimer, context.data(), [done, page, player] {
            done(page);
            player->checkFinished();
        });
    };
    if (std::exchange(player.syntheticFirstList, false)) {
        answer(player.syntheticPage(), 0);
        return;
    }
    // What a watch left behind: the end of a watch the reflector stopped itself.
    while (player.peek() != nullptr && player.peek()->kind == Kind::WatchEnded) {
        player.consume();
    }
    const RecordedInput *next = player.peek();
    if (next == nullptr) {
        // Past the stop instant, or the recording ends here (the recorded reflector was stopped
        // before it listed again): no answer, as a server that says nothing more.
        player.checkFinished();
        return;
    }
    if (options.continueToken.isEmpty() && next->kind == Kind::WatchOpened && next->sendInitialEvents) {
        // A recorded streaming list answers as one plain list: its initial events in the order
        // they first came, applied as the reflector's temporary store applies them.
        player.consume();
        QList<QString> order;
        QSet<QString> seen;
        QHash<QString, KubeObject> objects;
        while (const RecordedInput *input = player.peek()) {
            const qint64 due = player.dueInMs(*input);
            if (input->kind == Kind::WatchEvent) {
                const RecordedInput &event = player.consume();
                const QString key = metaNamespaceKey(event.object);
                if (event.eventType == u"DELETED"_s) {
                    objects.remove(key);
                } else {
                    if (!seen.contains(key)) {
                        seen.insert(key);
                        order.append(key);
                    }
                    objects.insert(key, event.object);
                }
                continue;
            }
            if (input->kind == Kind::Bookmark) {
                const RecordedInput &bookmark = player.consume();
                if (!RecordedCache::isInitialEventsEnd(bookmark.object)) {
                    continue;
                }
                ObjectListPage page;
                for (const QString &key : std::as_const(order)) {
                    const auto it = objects.constFind(key);
                    if (it != objects.cend()) {
                        page.items.append(*it);
                    }
                }
                page.resourceVersion = bookmark.object.resourceVersion();
                answer(page, due);
                return;
            }
            if (input->kind == Kind::WatchError || input->kind == Kind::WatchEnded) {
                const RecordedInput &end = player.consume();
                ObjectListPage page;
                page.error = end.error.isError() ? end.error : ApiError(ApiError::Kind::Network, u"the streaming list ended before its initial events"_s);
                answer(page, due);
                return;
            }
            break; // a list or watch with no end recorded: the state so far
        }
        if (player.peek() == nullptr && player.next < player.inputs.size()) {
            player.checkFinished();
            return; // held back: past the stop instant
        }
        answer(player.syntheticPage(), 0);
        return;
    }
    if (options.continueToken.isEmpty()) {
        if (next->kind != Kind::List) {
            // The reflector lists where the recorded one did not: the state so far, so that the
            // cache stays what the recording says.
            answer(player.syntheticPage(), 0);
            return;
        }
        player.consume();
        next = player.peek();
        if (next == nullptr) {
            player.checkFinished();
            return; // held back, or a recording that ends between request and answer
        }
    }
    if (next->kind != Kind::ListPage && next->kind != Kind::ListError) {
        answer(player.syntheticPage(), 0);
        return;
    }
    const qint64 due = player.dueInMs(*next);
    answer(pageOf(player.consume()), due);
}

std::unique_ptr<WatchSession> ReplayListerWatcher::watch(const WatchOptions &options)
{
    Q_UNUSED(options)
    using Kind = RecordedInput::Kind;
    ReplayPlayer &player = *m_player;
    auto session = std::make_unique<ReplayWatchSession>(m_player);
    while (player.peek() != nullptr && player.peek()->kind == Kind::WatchEnded) {
        player.consume();
    }
    const RecordedInput *next = player.peek();
    if (next != nullptr && next->kind == Kind::WatchOpened && !next->sendInitialEvents) {
        player.consume();
    } else if (next != nullptr && next->kind != Kind::WatchEvent && next->kind != Kind::Bookmark && next->kind != Kind::WatchError) {
        // The recording lists next: make the reflector list as the recorded one did.
        session->endAt(ApiError(ApiError::Kind::Http, u"the recording lists again here"_s, 410, u"Expired"_s));
        return session;
    }
    session->start();
    return session;
}

} // namespace Cachescope
