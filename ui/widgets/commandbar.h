#pragma once

#include "ui/models/commandbarmodel.h"

#include <QFrame>

class QLineEdit;
class QListView;

namespace Cachescope {

// CommandBar is the KDE-style command bar (Ctrl+Alt+I, and Ctrl+K): a line over a list, shown
// at the top of its parent window, that finds actions, resource kinds, contexts, namespaces and
// objects as the user types (CommandBarModel). Up/Down choose, Enter (or a click) takes the
// chosen row — entryActivated() — and closes it; Escape or losing focus closes it.
// GUI thread; the model is a child.
class CommandBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandBar)

public:
    explicit CommandBar(QWidget *parent);
    ~CommandBar() override;

    [[nodiscard]] CommandBarModel *model() const { return m_model; }
    [[nodiscard]] QLineEdit *line() const { return m_line; }
    [[nodiscard]] QListView *list() const { return m_list; }

    // open() shows the bar over its parent with text typed in (e.g. ":" from the table).
    void open(const QString &text = {});

Q_SIGNALS:
    // aboutToOpen() lets the owner refresh the model's sources before the first query.
    void aboutToOpen();
    void entryActivated(const Cachescope::CommandBarModel::Entry &entry);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void activate(int row);
    void place();

    CommandBarModel *m_model; // owned (child)
    QLineEdit *m_line; // owned (child)
    QListView *m_list; // owned (child)
};

} // namespace Cachescope
