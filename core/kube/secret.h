#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

class QDebug;

namespace Cachescope {

// Secret holds one credential (a bearer token, a password, a private key, an exec plugin's
// environment value) and refuses to show it by accident: QDebug prints "Secret(<redacted>)",
// there is no implicit conversion to a string, and the value is reached only through reveal(),
// whose name makes every use visible in review. Nothing that logs, builds an error text or
// saves settings should call reveal(); code that puts the value on the wire does.
// Value type, cheap to copy (implicitly shared bytes), usable from any thread.
class Secret
{
public:
    Secret() = default;
    explicit Secret(QByteArray value);
    [[nodiscard]] static Secret fromString(const QString &value);

    bool isEmpty() const { return m_value.isEmpty(); }
    const QByteArray &reveal() const { return m_value; }
    QString revealString() const { return QString::fromUtf8(m_value); }

    // redactIn() returns text with every occurrence of this secret replaced by "<redacted>",
    // for texts that come from elsewhere (a plugin's stderr, a server's message) and might
    // echo it. Secrets shorter than 4 bytes are left alone: replacing them would mangle the
    // text without protecting anything.
    [[nodiscard]] QString redactIn(QString text) const;
    [[nodiscard]] static QString redactAll(QString text, const QList<Secret> &secrets);

    friend bool operator==(const Secret &a, const Secret &b) { return a.m_value == b.m_value; }

private:
    QByteArray m_value;
};

QDebug operator<<(QDebug debug, const Secret &secret);

} // namespace Cachescope
