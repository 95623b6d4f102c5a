#include "core/kube/watchstream.h"

#include "core/kube/apiclient.h"
#include "core/kube/credentialprovider.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

WatchStream::WatchStream(ApiClient *client, ApiRequest request, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_request(std::move(request))
    , m_watchdog(new QTimer(this))
{
    m_watchdog->setSingleShot(true);
    m_watchdog->setInterval(m_idleTimeout);
    connect(m_watchdog, &QTimer::timeout, this, [this] {
        if (m_reply) {
            m_stalled = true;
            m_reply->abort();
        }
    });
}

WatchStream::~WatchStream()
{
    stop();
}

void WatchStream::setIdleTimeout(std::chrono::milliseconds timeout)
{
    m_idleTimeout = timeout;
    m_watchdog->setInterval(timeout);
    if (timeout.count() <= 0) {
        m_watchdog->stop();
    }
}

void WatchStream::start(bool refreshedCredentials)
{
    if (!m_client) {
        finish(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_client->prepare(m_request, this, [this, refreshedCredentials](const QNetworkRequest &request, const ApiError &error) {
        if (m_state == State::Finished) {
            return;
        }
        if (error.isError()) {
            finish(error);
            return;
        }
        open(request, refreshedCredentials);
    });
}

void WatchStream::open(const QNetworkRequest &request, bool refreshedCredentials)
{
    if (!m_client) {
        finish(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_manager = m_client->acquireWatchManager();
    m_reply = m_manager->get(request);
    m_sslErrors.clear();
    connect(m_reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError> &errors) {
        for (const QSslError &error : errors) {
            m_sslErrors.append(error.errorString());
        }
    });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        if (m_state == State::Connecting && m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
            m_state = State::Open;
            m_httpVersion = m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool() ? u"2"_s : u"1.1"_s;
            Q_EMIT opened();
        }
    });
    connect(m_reply, &QNetworkReply::readyRead, this, &WatchStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, [this, refreshedCredentials] { onFinished(refreshedCredentials); });
    if (m_idleTimeout.count() > 0) {
        m_watchdog->start();
    }
}

void WatchStream::onReadyRead()
{
    if (m_idleTimeout.count() > 0) {
        m_watchdog->start();
    }
    if (m_state != State::Open) {
        return; // an error answer: its body is read when the reply finishes
    }
    const QByteArray bytes = m_reply->readAll();
    m_bytes += bytes.size();
    const QList<WatchEvent> events = m_decoder.feed(bytes);
    const QPointer<WatchStream> self(this);
    for (const WatchEvent &event : events) {
        ++m_events;
        Q_EMIT eventReceived(event);
        if (!self || m_state == State::Finished) {
            return; // stopped or deleted by a receiver
        }
    }
}

void WatchStream::onFinished(bool refreshedCredentials)
{
    m_watchdog->stop();
    QNetworkReply *reply = m_reply;
    const QPointer<WatchStream> self(this);
    if (m_state == State::Open && reply->isOpen()) {
        onReadyRead();
        if (!self || m_state == State::Finished) {
            return;
        }
        for (const WatchEvent &event : m_decoder.finish()) {
            ++m_events;
            Q_EMIT eventReceived(event);
            if (!self || m_state == State::Finished) {
                return;
            }
        }
    }
    const QByteArray body = reply->isOpen() ? reply->readAll() : QByteArray();
    ApiError error = errorFromReply(reply, body, m_sslErrors);
    if (m_stalled) {
        error = ApiError(ApiError::Kind::Timeout,
                         u"the watch was silent for %1 s; the connection is presumed dead and the watch is dropped"_s.arg(m_idleTimeout.count() / 1000.0));
    } else if (m_state == State::Open && error.kind() == ApiError::Kind::Network && reply->error() == QNetworkReply::RemoteHostClosedError) {
        // The server closing a watch it has answered is the normal end (timeoutSeconds).
        error = {};
    }
    if (error.kind() == ApiError::Kind::Http && error.code() == 401 && !refreshedCredentials && m_client && m_client->credentialProvider()->canRefresh()) {
        m_client->credentialProvider()->invalidate();
        releaseManager();
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
        start(true);
        return;
    }
    finish(error);
}

void WatchStream::releaseManager()
{
    if (m_manager && m_client) {
        m_client->releaseWatchManager(m_manager);
    }
    m_manager = nullptr;
}

void WatchStream::finish(const ApiError &error)
{
    if (m_state == State::Finished) {
        return;
    }
    m_state = State::Finished;
    m_watchdog->stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    releaseManager();
    Q_EMIT finished(error);
}

void WatchStream::stop()
{
    m_state = State::Finished;
    m_watchdog->stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    releaseManager();
}

} // namespace Cachescope
