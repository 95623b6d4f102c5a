#pragma once

#include <QByteArray>
#include <QList>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextDocument;

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace Cachescope {

class KubeObject;
class ObjectEventsView;
class LogView;
class ObjectHistory;
class ObjectHistoryView;
class ObjectRelationsView;

// ObjectView shows one Kubernetes object as YAML or JSON, highlighted by KSyntaxHighlighting
// with the theme that suits the widget's palette (light or dark), switching when the palette
// changes, and in a second tab the object's history of notifications with the diff of each
// (ObjectHistoryView over an ObjectHistory the caller owns); then its Relations and its
// Kubernetes Events (ObjectRelationsView, ObjectEventsView: the caller feeds them), their tab
// titles counting what they show once it is known.
// A Secret's `data` and `stringData` values are shown as "••••••" until the user reveals them
// (revealAction()); revealing holds for that object only and ends when another object is
// shown. Copying (copyTextAction()) copies exactly what is shown, masked unless revealed.
// The view never logs object contents.
// Live: an object shown with showObject() follows the informer through the history — each new
// version the history records for its key replaces the text (keeping the scroll position) and
// the lines it changed are marked for markDuration(); a delete keeps the last state with a
// banner saying so. Pinning (pinAction()) keeps the shown version on purpose, the banner
// counting the newer ones; unpinning shows the newest. Showing another object ends both.
// It holds the object's JSON bytes as given; rendering happens on each setObject() or format
// change, on the GUI thread (one object is small: milliseconds at most).
class ObjectView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectView)

public:
    enum class Format { Yaml, Json };
    Q_ENUM(Format)

    explicit ObjectView(QWidget *parent = nullptr);
    ~ObjectView() override;

    // setObject() shows the object whose JSON encoding is `json`. Invalid JSON is shown as
    // an error message in the view, never as a crash or an empty pane. `resource` (e.g.
    // "secrets") tells a Secret that carries no kind, as items of a list response do.
    void setObject(const QByteArray &json, const QString &resource = {});
    [[nodiscard]] QByteArray object() const { return m_json; }

    // showObject() shows an informer's object, points the history tab at its key and follows it.
    void showObject(const QString &resource, const QString &key, const KubeObject &object);

    // isPinned() is true while the shown version is kept on purpose (pinAction()).
    [[nodiscard]] bool isPinned() const { return m_pinned; }
    void setPinned(bool pinned);
    // isDeleted() is true once the followed object was deleted (its last state stays shown).
    [[nodiscard]] bool isDeleted() const { return m_deleted; }
    // bannerText() is what the banner above the text says; empty while it is hidden.
    [[nodiscard]] QString bannerText() const;
    // changedLines() are the 0-based lines of the shown text that the last update changed,
    // marked until markDuration() has passed (then empty).
    [[nodiscard]] QList<int> changedLines() const { return m_changedLines; }
    void setMarkDuration(std::chrono::milliseconds duration) { m_markTimer.setInterval(duration); }

    // setHistory() gives the view the history to show in its History tab (not owned).
    void setHistory(ObjectHistory *history);
    [[nodiscard]] ObjectHistoryView *historyView() const { return m_historyView; }
    [[nodiscard]] ObjectRelationsView *relationsView() const { return m_relationsView; }
    [[nodiscard]] ObjectEventsView *eventsView() const { return m_eventsView; }
    // logView() is the Logs tab, shown for pods and workloads; the caller gives it the cluster
    // and, for a workload, the RelationService that finds its pods.
    [[nodiscard]] LogView *logView() const { return m_logView; }

    void setFormat(Format format);
    [[nodiscard]] Format format() const { return m_format; }

    // isSecret() is true when the shown object's values are subject to masking.
    [[nodiscard]] bool isSecret() const { return m_secret; }
    void setSecretsRevealed(bool revealed);
    [[nodiscard]] bool secretsRevealed() const { return m_revealed; }

    // The rendered document, for tests and for "copy as YAML".
    [[nodiscard]] QTextDocument *document() const;
    [[nodiscard]] QString text() const;
    // The name of the KSyntaxHighlighting theme in use.
    [[nodiscard]] QString themeName() const;

    // Actions, also for menus and shortcuts elsewhere: reveal (checkable; enabled for secrets),
    // copy name, copy the shown text (YAML or JSON, masked unless revealed).
    [[nodiscard]] QAction *revealAction() const { return m_revealAction; }
    [[nodiscard]] QAction *copyNameAction() const { return m_copyNameAction; }
    [[nodiscard]] QAction *copyTextAction() const { return m_copyTextAction; }
    [[nodiscard]] QAction *pinAction() const { return m_pinAction; }

    // renderText() is how the view renders an object: YAML or indented JSON, a Secret's values
    // masked when `mask` is set. Empty for invalid JSON (the error goes to `error` if given).
    [[nodiscard]] static QString renderText(const QByteArray &json, Format format, bool mask, const QString &resource = {}, QString *error = nullptr);

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    void applyTheme();
    void updateActions();
    // onHistoryRows() takes the versions the history just recorded for the followed key.
    void onHistoryRows(int first, int last);
    // follow() shows a newer version of the followed object, marking the lines it changed.
    void follow(const QByteArray &json);
    void markLines(const QList<int> &lines);
    void updateBanner();

    QTabWidget *m_tabs; // owned (child)
    QPlainTextEdit *m_editor; // owned (child)
    ObjectHistoryView *m_historyView; // owned (child)
    ObjectRelationsView *m_relationsView; // owned (child)
    ObjectEventsView *m_eventsView; // owned (child)
    LogView *m_logView; // owned (child)
    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter; // owned (child of the document)
    QAction *m_yamlAction; // owned (child)
    QAction *m_jsonAction; // owned (child)
    QAction *m_revealAction; // owned (child)
    QAction *m_copyNameAction; // owned (child)
    QAction *m_copyTextAction; // owned (child)
    QAction *m_pinAction; // owned (child)
    QLabel *m_banner; // owned (child)
    QTimer m_markTimer;
    QByteArray m_json;
    QString m_resource;
    QString m_name;
    QString m_identity; // what makes "another object": uid, or kind/namespace/name
    Format m_format = Format::Yaml;
    bool m_secret = false;
    bool m_revealed = false;
    // The followed object: its history key, and what happened to it since it was shown.
    QString m_followResource;
    QString m_followKey;
    QByteArray m_newestJson; // the newest version recorded, shown when unpinned
    QString m_shownResourceVersion;
    int m_newerVersions = 0; // recorded while pinned
    bool m_pinned = false;
    bool m_deleted = false;
    QList<int> m_changedLines;
};

} // namespace Cachescope
