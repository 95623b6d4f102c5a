#include "core/util/stringinterner.h"

namespace Cachescope {

StringInterner &StringInterner::forThread()
{
    thread_local StringInterner instance;
    return instance;
}

QString StringInterner::intern(std::string_view text)
{
    if (auto it = m_strings.find(text); it != m_strings.end()) {
        return it->second;
    }
    if (m_strings.size() >= capacity()) {
        // Starting over rather than evicting one entry: no bookkeeping per hit, and the strings
        // that repeat are back after one decode each.
        m_strings.clear();
    }
    QString value = QString::fromUtf8(text.data(), qsizetype(text.size()));
    m_strings.emplace(std::string(text), value);
    return value;
}

} // namespace Cachescope
