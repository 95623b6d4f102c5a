#include "core/record/recordinglisterwatcher.h"

#include "core/record/recordingqueue.h"
#include "core/record/recordingwatchsession_p.h"

namespace Cachescope {

RecordingListerWatcher::RecordingListerWatcher(std::unique_ptr<ListerWatcher> live, std::shared_ptr<RecordingQueue> queue, qint64 informerId)
    : m_live(std::move(live))
    , m_queue(std::move(queue))
    , m_informerId(informerId)
{
}

RecordingListerWatcher::~RecordingListerWatcher() = default;

InformerFactory::ListerWatcherWrapper RecordingListerWatcher::wrapper(std::shared_ptr<RecordingQueue> queue,
                                                                      std::function<SharedIndexInformer::Options()> defaults)
{
    return [queue = std::move(queue), defaults = std::move(defaults)](const InformerKey &key,
                                                                      std::unique_ptr<ListerWatcher> live) -> std::unique_ptr<ListerWatcher> {
        RecordedInformer informer;
        informer.name = key.name();
        informer.resource = key.resource;
        informer.namespaceName = key.namespaceName;
        informer.labelSelector = key.labelSelector;
        informer.fieldSelector = key.fieldSelector;
        informer.metadataOnly = key.metadataOnly;
        if (defaults) {
            const SharedIndexInformer::Options options = defaults();
            informer.queueKind = options.queueKind;
            informer.watchList = options.reflector.useWatchList;
        }
        const qint64 id = queue->addInformer(informer);
        return std::make_unique<RecordingListerWatcher>(std::move(live), queue, id);
    };
}

void RecordingListerWatcher::list(const ListOptions &options, QObject *context, ListCallback done)
{
    if (options.continueToken.isEmpty()) {
        RecordedInput input;
        input.informerId = m_informerId;
        input.kind = RecordedInput::Kind::List;
        input.resourceVersion = options.resourceVersion;
        m_queue->append(std::move(input));
    }
    m_live->list(options, context, [queue = m_queue, informerId = m_informerId, done = std::move(done)](const ObjectListPage &page) {
        RecordedInput input;
        input.informerId = informerId;
        if (page.error.isError()) {
            input.kind = RecordedInput::Kind::ListError;
            input.error = page.error;
        } else {
            input.kind = RecordedInput::Kind::ListPage;
            input.items = page.items;
            input.resourceVersion = page.resourceVersion;
            input.continueToken = page.continueToken;
            input.remaining = page.remainingItemCount;
            if (page.malformedItems > 0) {
                // The reflector fails such a list (it cannot tell what the skipped items were):
                // recorded as the error it becomes, so that a replay fails it too.
                input.kind = RecordedInput::Kind::ListError;
                input.items.clear();
                input.error = ApiError(ApiError::Kind::Decode, QStringLiteral("%1 item(s) of the list could not be decoded").arg(page.malformedItems));
            }
        }
        queue->append(std::move(input));
        done(page);
    });
}

std::unique_ptr<WatchSession> RecordingListerWatcher::watch(const WatchOptions &options)
{
    RecordedInput input;
    input.informerId = m_informerId;
    input.kind = RecordedInput::Kind::WatchOpened;
    input.resourceVersion = options.resourceVersion;
    input.sendInitialEvents = options.sendInitialEvents;
    m_queue->append(std::move(input));
    return std::make_unique<RecordingWatchSession>(m_live->watch(options), m_queue, m_informerId);
}

} // namespace Cachescope
