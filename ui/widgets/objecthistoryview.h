#pragma once

#include "ui/models/objecthistory.h"
#include "ui/widgets/objectview.h"

#include <QPointer>
#include <QWidget>

class QTableView;

namespace Cachescope {

class ObjectDiffView;

// ObjectHistoryView shows the versions an ObjectHistory recorded for its current key (time,
// type, resourceVersion) and, for the selected version, the diff that version made: old → new
// for an update, everything added for an add, everything removed for a delete. Versions are
// rendered like ObjectView renders them (YAML or JSON), a Secret's values masked unless the
// owner reveals them. When the history switches to another object its newest version is
// selected; a newly appended version is selected while the newest was selected, so the view
// follows a live object.
// Thread: GUI thread. Ownership: the history model is not owned (the caller keeps it alive;
// a QPointer guards against its deletion).
class ObjectHistoryView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectHistoryView)

public:
    explicit ObjectHistoryView(QWidget *parent = nullptr);
    ~ObjectHistoryView() override;

    void setHistory(ObjectHistory *history);
    [[nodiscard]] ObjectHistory *history() const { return m_history; }

    void setFormat(ObjectView::Format format);
    void setSecretsRevealed(bool revealed);
    [[nodiscard]] bool secretsRevealed() const { return m_revealed; }

    // selectRow() selects a version of the current key (tests, keyboard); -1 clears.
    void selectRow(int row);
    [[nodiscard]] int selectedRow() const;

    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] ObjectDiffView *diffView() const { return m_diff; }

private:
    void showSelected();

    QPointer<ObjectHistory> m_history; // not owned
    QTableView *m_table; // owned (child)
    ObjectDiffView *m_diff; // owned (child)
    ObjectView::Format m_format = ObjectView::Format::Yaml;
    bool m_revealed = false;
    bool m_followNewest = false; // set between rowsAboutToBeInserted and rowsInserted
};

} // namespace Cachescope
