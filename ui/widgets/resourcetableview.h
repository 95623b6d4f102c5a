#pragma once

#include "core/cache/kubeobject.h"
#include "ui/models/resourcetablemodel.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QPushButton;

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QTableView;

namespace Cachescope {

class ResourceFilterProxyModel;
class ResourceTableDelegate;

// ResourceTableView is the live table of one resource: a filter line (Ctrl+L; name or
// namespace substring, applied after a short pause in typing), a label-selector line (errors
// shown with their position), a search line (Ctrl+F: select the next row whose cells contain
// the text; Enter or F3 finds the next one), a progress bar while the first list pages arrive
// ("items so far of total"), and the table itself: sortable by any column, uniform row heights,
// changed rows flashing for a second. Enter or a double click on a row emits objectActivated().
// The header's context menu shows and hides columns; with setColumnsKey() naming the kind, what
// the user hides, shows, widens and moves is remembered per kind (HeaderLayout), wide columns
// hidden by default as kubectl does.
//
// The model is not owned (one ResourceTableModel per shown informer, owned by whoever switches
// them); the proxy and the delegate are children. Thread: GUI.
class ResourceTableView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTableView)

public:
    explicit ResourceTableView(QWidget *parent = nullptr);
    ~ResourceTableView() override;

    void setModel(ResourceTableModel *model);
    ResourceTableModel *model() const { return m_model; }

    // findNext() selects the next row (after the current one, wrapping) with a cell containing
    // text, case-insensitively; false when no row matches.
    bool findNext(const QString &text);

    QTableView *tableView() const { return m_table; }
    ResourceFilterProxyModel *proxyModel() const { return m_proxy; }
    QLineEdit *filterLine() const { return m_filter; }
    QLineEdit *selectorLine() const { return m_selector; }
    QLineEdit *searchLine() const { return m_search; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *selectorError() const { return m_selectorError; }
    // problemLabel() says why the informer is not watching (the server's message, "retrying in
    // N s"), in the table's place until the first list arrives, above the rows after that.
    QLabel *problemLabel() const { return m_problem; }
    // retryButton() ("Retry Now") ends the informer's backoff; shown while it waits to retry.
    QPushButton *retryButton() const { return m_retry; }

    // applyFilterNow() applies the filter line without waiting for the typing pause.
    void applyFilterNow();

    // setColumnsKey() names the kind whose column layout the table follows and keeps; call it
    // before the model gets that kind's columns.
    void setColumnsKey(const QString &kind);
    [[nodiscard]] QString columnsKey() const { return m_columnsKey; }
    // createColumnsMenu() is the header's context menu: a checkable action per column (Name
    // always shown), "Label Columns…", then "Reset Columns". The caller owns it.
    [[nodiscard]] QMenu *createColumnsMenu(QWidget *parent);
    // setLabelColumns() keeps the label keys to show as columns for the kind (kubectl's -L) and
    // says so with labelColumnsChanged(): whoever sets the model's columns adds them.
    void setLabelColumns(const QStringList &keys);
    [[nodiscard]] QStringList labelColumns() const;

Q_SIGNALS:
    void objectActivated(const Cachescope::KubeObject &object);
    void labelColumnsChanged(const QStringList &keys);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applySelector();
    void updateProgress();
    void updateProblem();
    void retranslate();
    void applyColumnLayout();
    void saveColumnLayout();

    QPointer<ResourceTableModel> m_model; // not owned; null once it is destroyed
    ResourceFilterProxyModel *m_proxy; // owned (child)
    ResourceTableDelegate *m_delegate; // owned (child)
    QTableView *m_table; // owned (child)
    QLineEdit *m_filter; // owned (child)
    QLineEdit *m_selector; // owned (child)
    QLineEdit *m_search; // owned (child)
    QLabel *m_selectorError; // owned (child)
    QProgressBar *m_progress; // owned (child)
    QLabel *m_problem; // owned (child)
    QPushButton *m_retry; // owned (child)
    QTimer m_problemTick{this}; // counts "retrying in N s" down
    QTimer m_filterDelay;
    QTimer m_flashRepaint;
    qint64 m_flashUntil = 0;
    QList<QMetaObject::Connection> m_modelConnections;
    QString m_columnsKey;
    bool m_applyingLayout = false;
};

} // namespace Cachescope
