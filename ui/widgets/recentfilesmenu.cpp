#include "ui/widgets/recentfilesmenu.h"

#include <QFileInfo>
#include <QSettings>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {
const QString settingsKey = u"recentFiles"_s;
}

RecentFilesMenu::RecentFilesMenu(QWidget *parent)
    : QMenu(tr("Open &Recent"), parent)
{
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::rebuild);
    rebuild();
}

QStringList RecentFilesMenu::files() const
{
    return QSettings().value(settingsKey).toStringList();
}

void RecentFilesMenu::addFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > maximumCount) {
        list.removeLast();
    }
    store(list);
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    clear();
    QStringList existing;
    const QStringList all = files();
    for (const QString &path : all) {
        if (QFileInfo::exists(path)) {
            existing.append(path);
        }
    }
    if (existing != all) {
        store(existing);
    }
    for (const QString &path : std::as_const(existing)) {
        QAction *action = addAction(path);
        connect(action, &QAction::triggered, this, [this, path] { Q_EMIT fileTriggered(path); });
    }
    if (existing.isEmpty()) {
        addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    addSeparator();
    connect(addAction(tr("&Clear List")), &QAction::triggered, this, [this] {
        store({});
        rebuild();
    });
}

void RecentFilesMenu::store(const QStringList &files)
{
    QSettings().setValue(settingsKey, files);
}

} // namespace Cachescope
