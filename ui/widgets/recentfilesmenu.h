#pragma once

#include <QMenu>
#include <QStringList>

namespace Cachescope {

// RecentFilesMenu is the "Open Recent" menu: the last kubeconfig files opened, newest first,
// kept in QSettings under "recentFiles" (paths only; a kubeconfig's contents are never stored).
// Files that no longer exist are dropped when the menu is shown.
class RecentFilesMenu final : public QMenu
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecentFilesMenu)

public:
    static constexpr int maximumCount = 10;

    explicit RecentFilesMenu(QWidget *parent = nullptr);

    void addFile(const QString &path);
    [[nodiscard]] QStringList files() const;

Q_SIGNALS:
    void fileTriggered(const QString &path);

private:
    void rebuild();
    void store(const QStringList &files);
};

} // namespace Cachescope
