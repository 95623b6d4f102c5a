#pragma once

#include "core/cache/listerwatcher.h"
#include "core/kube/apiresource.h"

#include <QPointer>

namespace Cachescope {

class ApiClient;
struct ApiRequest;

// ApiListerWatcher is the ListerWatcher of one resource on a real cluster, through an ApiClient:
// one namespace (or all), label and field selectors sent to the server, and optionally
// metadata only (as=PartialObjectMetadataList / PartialObjectMetadata).
//
// List items and watch events are cut out of the bytes on the client's thread as they arrive
// and decoded with the informer's transform (KubeObject::fromJson): list items there, a watch's
// events on backgroundPool() threads, in order (a SerialLane per watch, its stream paused while
// the lane has a few runs' worth waiting; ApiClient::stream() cannot pause yet, and a lane that
// decodes behind an unpaused reader holds the raw items). The apiserver leaves apiVersion and
// kind out of list items; they are put back from the resource's discovery entry so that cached
// objects look the same whether they came from a list or a watch. An item that cannot be decoded
// is skipped and counted. A watch event whose object cannot be decoded becomes a Malformed event.
//
// Thread: lives on the ApiClient's thread and is called there; pages and events are answered
// on it (the caller's context), in order, a watch's end after its last event. The client is not
// owned and must outlive it (or the calls fail with a Canceled error once it is gone).
class ApiListerWatcher final : public ListerWatcher
{
public:
    struct Target
    {
        ApiResource resource;
        QString namespaceName; // empty = all namespaces (or cluster-scoped)
        QString labelSelector;
        QString fieldSelector;
        bool metadataOnly = false;
        KubeObject::Transform transform = KubeObject::Transform::DropManagedFields;
        // A watch silent for longer is dropped and resumed (0 = WatchStream's default, a little
        // over the apiserver's one-minute bookmark interval).
        std::chrono::milliseconds idleTimeout{0};
    };

    ApiListerWatcher(ApiClient *client, const Target &target);

    void list(const ListOptions &options, QObject *context, ListCallback done) override;
    [[nodiscard]] std::unique_ptr<WatchSession> watch(const WatchOptions &options) override;

    const Target &target() const { return m_target; }

    // decodeItem() decodes one object, putting apiVersion and kind back when they are absent.
    [[nodiscard]] static std::optional<KubeObject> decodeItem(const QByteArray &json, const ApiResource &resource, KubeObject::Transform transform);

private:
    QString collectionPath() const;
    void addSelectors(ApiRequest &request, const QString &labelSelector, const QString &fieldSelector) const;

    QPointer<ApiClient> m_client;
    Target m_target;
};

} // namespace Cachescope
