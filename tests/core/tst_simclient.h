#pragma once
// A minimal HTTP client for the simulator's tests: blocking requests (a local event loop spun
// by QSignalSpy::wait, test thread only) and watch readers that collect events as they arrive.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QUrl>

#include <memory>

namespace SimTest {

struct Response
{
    int status = 0;
    QByteArray body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QList<QNetworkReply::RawHeaderPair> headers;
    bool http2 = false; // QNetworkRequest::Http2WasUsedAttribute

    [[nodiscard]] QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    [[nodiscard]] QByteArray header(const QByteArray &name) const
    {
        for (const auto &pair : headers) {
            if (pair.first.compare(name, Qt::CaseInsensitive) == 0)
                return pair.second;
        }
        return {};
    }
};

class Client
{
public:
    Client(const QUrl &base, const QString &token)
        : m_base(base)
        , m_token(token)
    {
    }

    void setSslConfiguration(const QSslConfiguration &config) { m_ssl = config; }
    void setToken(const QString &token) { m_token = token; }
    // HTTP/2 with prior knowledge (h2c over plain HTTP).
    void setHttp2Direct(bool direct) { m_http2Direct = direct; }
    // Whether HTTP/2 may be negotiated by ALPN over TLS (Qt's default: yes).
    void setHttp2Allowed(bool allowed) { m_http2Allowed = allowed; }

    [[nodiscard]] QNetworkRequest makeRequest(const QString &pathAndQuery, const QList<std::pair<QByteArray, QByteArray>> &headers = {}) const
    {
        QNetworkRequest request(QUrl(m_base.toString() + pathAndQuery));
        if (!m_token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_token.toLatin1());
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        if (m_ssl)
            request.setSslConfiguration(*m_ssl);
        if (m_http2Direct)
            request.setAttribute(QNetworkRequest::Http2DirectAttribute, true);
        if (m_http2Allowed)
            request.setAttribute(QNetworkRequest::Http2AllowedAttribute, *m_http2Allowed);
        return request;
    }

    Response request(const QByteArray &method,
                     const QString &pathAndQuery,
                     const QByteArray &body = {},
                     const QByteArray &contentType = "application/json",
                     const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        QNetworkRequest request = makeRequest(pathAndQuery, headers);
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        QNetworkReply *reply = m_manager.sendCustomRequest(request, method, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(20000);
        Response response;
        response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        response.body = reply->readAll();
        response.error = reply->error();
        response.headers = reply->rawHeaderPairs();
        response.http2 = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
        reply->deleteLater();
        return response;
    }

    Response get(const QString &pathAndQuery, const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        return request("GET", pathAndQuery, {}, {}, headers);
    }

    QNetworkAccessManager &manager() { return m_manager; }

private:
    QNetworkAccessManager m_manager;
    QUrl m_base;
    QString m_token;
    std::optional<QSslConfiguration> m_ssl;
    bool m_http2Direct = false;
    std::optional<bool> m_http2Allowed;
};

// Reads a watch stream, one JSON event per line, into events.
class WatchReader : public QObject
{
public:
    WatchReader(Client &client, const QString &pathAndQuery, const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        m_reply = client.manager().get(client.makeRequest(pathAndQuery, headers));
        connect(m_reply, &QNetworkReply::readyRead, this, [this] {
            m_buffer += m_reply->readAll();
            // An offset instead of removing each line: a megabyte of buffered events would make
            // per-line removal quadratic and the reader artificially slow.
            qsizetype at = 0;
            qsizetype eol;
            while ((eol = m_buffer.indexOf('\n', at)) >= 0) {
                events.append(QJsonDocument::fromJson(QByteArrayView(m_buffer).sliced(at, eol - at).toByteArray()).object());
                at = eol + 1;
            }
            m_buffer.remove(0, at);
        });
        connect(m_reply, &QNetworkReply::finished, this, [this] {
            // An aborted reply (the reader's own destructor) is closed already.
            if (m_reply->isOpen())
                m_buffer += m_reply->readAll();
            finished = true;
        });
    }
    ~WatchReader() override
    {
        if (m_reply) {
            m_reply->abort();
            m_reply->deleteLater();
        }
    }

    [[nodiscard]] int count(const QString &type) const
    {
        int n = 0;
        for (const QJsonObject &event : events)
            n += event.value(u"type").toString() == type ? 1 : 0;
        return n;
    }
    [[nodiscard]] QNetworkReply *reply() const { return m_reply; }
    // What arrived after the last complete line (a truncated frame stays here).
    [[nodiscard]] QByteArray rest() const { return m_buffer; }

    QList<QJsonObject> events;
    bool finished = false;

private:
    QNetworkReply *m_reply = nullptr;
    QByteArray m_buffer;
};

} // namespace SimTest
