#pragma once

#include <QString>
#include <QWidget>

class QPlainTextEdit;
class QTextDocument;

namespace Cachescope {

// ObjectDiffView shows the unified diff between two texts (two versions of an object, rendered
// the same way): hunk headers, context lines, removed lines on a red and added lines on a green
// background, both mixed into the palette's base colour so they read on light and dark themes
// and follow palette changes. Identical texts show a note instead of an empty pane.
// Thread: GUI thread. Cost: LineDiff's, O((N+M)·D), on each setTexts() only.
class ObjectDiffView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectDiffView)

public:
    explicit ObjectDiffView(QWidget *parent = nullptr);
    ~ObjectDiffView() override;

    void setTexts(const QString &oldText, const QString &newText);
    void clear();
    // setMessage() shows a note instead of a diff (e.g. "select an update").
    void setMessage(const QString &message);

    [[nodiscard]] QTextDocument *document() const;
    [[nodiscard]] QString text() const;

    // The backgrounds used for added and removed lines with the current palette.
    [[nodiscard]] QColor addedBackground() const;
    [[nodiscard]] QColor removedBackground() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();

    QPlainTextEdit *m_editor; // owned (child)
    QString m_old;
    QString m_new;
    QString m_message;
    bool m_hasTexts = false;
};

} // namespace Cachescope
