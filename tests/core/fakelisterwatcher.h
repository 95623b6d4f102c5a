#pragma once

// FakeListerWatcher: a scripted ListerWatcher for unit tests of the Reflector and the
// SharedIndexInformer (client-go's tests use a fake ListerWatcher the same way). It records
// every call; list answers come from a function the test sets, delivered asynchronously like
// a real server's; watch sessions stay open until the test sends events or ends them.

#include "core/cache/kubeobject.h"
#include "core/cache/listerwatcher.h"

#include <QList>
#include <QPointer>
#include <QTimer>

#include <functional>

namespace CachescopeTest {

class FakeWatchSession final : public Cachescope::WatchSession
{
public:
    using Cachescope::WatchSession::WatchSession;

    void stop() override { m_stopped = true; }
    bool isStopped() const { return m_stopped; }

    void send(const QList<Cachescope::ObjectEvent> &events)
    {
        if (!m_stopped) {
            Q_EMIT eventsReceived(events);
        }
    }
    void end(const Cachescope::ApiError &error = {})
    {
        if (!m_stopped) {
            m_stopped = true;
            Q_EMIT ended(error);
        }
    }

private:
    bool m_stopped = false;
};

class FakeListerWatcher final : public Cachescope::ListerWatcher
{
public:
    std::function<Cachescope::ObjectListPage(const Cachescope::ListOptions &)> onList;
    QList<Cachescope::ListOptions> listCalls;
    QList<Cachescope::WatchOptions> watchCalls;
    QList<QPointer<FakeWatchSession>> sessions;

    void list(const Cachescope::ListOptions &options, QObject *context, ListCallback done) override
    {
        listCalls.append(options);
        const Cachescope::ObjectListPage page = onList ? onList(options) : Cachescope::ObjectListPage{};
        QTimer::singleShot(0, context, [done, page] { done(page); });
    }

    std::unique_ptr<Cachescope::WatchSession> watch(const Cachescope::WatchOptions &options) override
    {
        watchCalls.append(options);
        auto session = std::make_unique<FakeWatchSession>();
        sessions.append(session.get());
        return session;
    }

    // The newest watch session, if it is still open.
    FakeWatchSession *current() const
    {
        if (sessions.isEmpty() || !sessions.constLast() || sessions.constLast()->isStopped()) {
            return nullptr;
        }
        return sessions.constLast().data();
    }
};

inline Cachescope::KubeObject pod(const QString &name, const QString &resourceVersion, const QString &ns = QStringLiteral("default"))
{
    const QByteArray json =
        QStringLiteral(
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%3","uid":"uid-%1"},"spec":{"nodeName":"node-1"}})")
            .arg(name, ns, resourceVersion)
            .toUtf8();
    return Cachescope::KubeObject::fromJson(json).value_or(Cachescope::KubeObject());
}

inline Cachescope::KubeObject bookmark(const QString &resourceVersion, bool initialEventsEnd = false)
{
    const QString annotations = initialEventsEnd ? QStringLiteral(R"(,"annotations":{"k8s.io/initial-events-end":"true"})") : QString();
    const QByteArray json =
        QStringLiteral(R"({"apiVersion":"v1","kind":"Pod","metadata":{"resourceVersion":"%1"%2}})").arg(resourceVersion, annotations).toUtf8();
    return Cachescope::KubeObject::fromJson(json).value_or(Cachescope::KubeObject());
}

inline Cachescope::ObjectEvent watchEvent(Cachescope::ObjectEvent::Type type, const Cachescope::KubeObject &object)
{
    Cachescope::ObjectEvent e;
    e.type = type;
    e.object = object;
    return e;
}

inline Cachescope::ObjectEvent errorEvent(int code, const QString &reason)
{
    Cachescope::ObjectEvent e;
    e.type = Cachescope::ObjectEvent::Type::Error;
    e.error = Cachescope::ApiError(Cachescope::ApiError::Kind::Http, QStringLiteral("test"), code, reason);
    return e;
}

inline Cachescope::ObjectListPage page(const QList<Cachescope::KubeObject> &items, const QString &resourceVersion, const QString &continueToken = {})
{
    Cachescope::ObjectListPage p;
    p.items = items;
    p.resourceVersion = resourceVersion;
    p.continueToken = continueToken;
    return p;
}

inline Cachescope::ObjectListPage errorPage(int code, const QString &reason)
{
    Cachescope::ObjectListPage p;
    p.error = Cachescope::ApiError(Cachescope::ApiError::Kind::Http, QStringLiteral("test"), code, reason);
    return p;
}

} // namespace CachescopeTest
