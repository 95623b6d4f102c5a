#pragma once

#include <QString>
#include <QStringList>

class QHeaderView;

namespace Cachescope {

class ResourceColumns;

// HeaderLayout remembers, per kind, how the user arranged a resource table's columns: which
// are hidden, their widths and their order. A kind's wide columns (kubectl's priority > 0,
// e.g. a pod's IP and Node: what `-o wide` adds) are hidden until the user shows them.
// Columns are keyed by their (untranslated) title, so a kind whose columns change — a custom
// resource gaining printer columns — keeps what still applies, and a language switch keeps it
// all. Stored in QSettings under "columns/<kind>/". Stateless functions; GUI thread.
class HeaderLayout
{
public:
    // apply() arranges header (whose sections are columns, in order) as saved for kind, or by
    // the defaults when nothing is saved.
    static void apply(QHeaderView *header, const ResourceColumns &columns, const QString &kind);
    // save() stores header's arrangement for kind.
    static void save(const QHeaderView *header, const ResourceColumns &columns, const QString &kind);
    // forget() drops what was saved for kind (label columns too), so that the defaults apply again.
    static void forget(const QString &kind);
    // labelColumns() are the label keys the user shows as columns for kind (kubectl's -L).
    [[nodiscard]] static QStringList labelColumns(const QString &kind);
    static void setLabelColumns(const QString &kind, const QStringList &keys);

private:
    static QString group(const QString &kind);
};

} // namespace Cachescope
