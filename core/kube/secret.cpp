#include "core/kube/secret.h"

#include <QDebug>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Secret::Secret(QByteArray value)
    : m_value(std::move(value))
{
}

Secret Secret::fromString(const QString &value)
{
    return Secret(value.toUtf8());
}

QString Secret::redactIn(QString text) const
{
    if (m_value.size() < 4) {
        return text;
    }
    return text.replace(QString::fromUtf8(m_value), u"<redacted>"_s);
}

QString Secret::redactAll(QString text, const QList<Secret> &secrets)
{
    for (const Secret &secret : secrets) {
        text = secret.redactIn(std::move(text));
    }
    return text;
}

QDebug operator<<(QDebug debug, const Secret &secret)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << (secret.isEmpty() ? "Secret(empty)" : "Secret(<redacted>)");
    return debug;
}

} // namespace Cachescope
