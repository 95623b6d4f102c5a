#include "ui/widgets/headerlayout.h"

#include "core/printers/resourcecolumns.h"

#include <QHeaderView>
#include <QSettings>
#include <QVariantMap>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString HeaderLayout::group(const QString &kind)
{
    // QSettings treats '/' as a separator: a group per kind, whatever its name holds.
    return u"columns/"_s + QString(kind).replace(u'/', u'_');
}

void HeaderLayout::apply(QHeaderView *header, const ResourceColumns &columns, const QString &kind)
{
    QSettings settings;
    settings.beginGroup(group(kind));
    const QStringList hidden = settings.value(u"hidden"_s).toStringList();
    const QStringList shown = settings.value(u"shown"_s).toStringList();
    const QVariantMap widths = settings.value(u"widths"_s).toMap();
    const QStringList order = settings.value(u"order"_s).toStringList();
    settings.endGroup();

    const int count = std::min(header->count(), int(columns.count()));
    for (int logical = 0; logical < count; ++logical) {
        const ResourceColumns::Column &column = columns.column(logical);
        const bool hide = hidden.contains(column.title) || (column.priority > 0 && !shown.contains(column.title));
        header->setSectionHidden(logical, hide);
        if (const auto width = widths.constFind(column.title); width != widths.constEnd() && width->toInt() > 0) {
            header->resizeSection(logical, width->toInt());
        }
    }
    // The saved order, for the columns that still exist; the others keep their places after them.
    int visual = 0;
    for (const QString &title : order) {
        for (int logical = 0; logical < count; ++logical) {
            if (columns.column(logical).title == title) {
                header->moveSection(header->visualIndex(logical), visual++);
                break;
            }
        }
    }
}

void HeaderLayout::save(const QHeaderView *header, const ResourceColumns &columns, const QString &kind)
{
    QStringList hidden;
    QStringList shown;
    QVariantMap widths;
    QStringList order(header->count());
    const int count = std::min(header->count(), int(columns.count()));
    for (int logical = 0; logical < count; ++logical) {
        const ResourceColumns::Column &column = columns.column(logical);
        if (header->isSectionHidden(logical)) {
            hidden.append(column.title);
        } else {
            if (column.priority > 0) {
                shown.append(column.title);
            }
            widths.insert(column.title, header->sectionSize(logical));
        }
        order[header->visualIndex(logical)] = column.title;
    }
    order.removeAll(QString());
    QSettings settings;
    settings.beginGroup(group(kind));
    settings.setValue(u"hidden"_s, hidden);
    settings.setValue(u"shown"_s, shown);
    settings.setValue(u"widths"_s, widths);
    settings.setValue(u"order"_s, order);
    settings.endGroup();
}

void HeaderLayout::forget(const QString &kind)
{
    QSettings().remove(group(kind));
}

QStringList HeaderLayout::labelColumns(const QString &kind)
{
    return QSettings().value(group(kind) + u"/labels"_s).toStringList();
}

void HeaderLayout::setLabelColumns(const QString &kind, const QStringList &keys)
{
    QSettings settings;
    if (keys.isEmpty()) {
        settings.remove(group(kind) + u"/labels"_s);
    } else {
        settings.setValue(group(kind) + u"/labels"_s, keys);
    }
}

} // namespace Cachescope
