#pragma once

#include <QByteArray>
#include <QWidget>

class QPlainTextEdit;
class QTextDocument;

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace Cachescope {

// ObjectView shows one Kubernetes object as YAML or JSON, highlighted by KSyntaxHighlighting
// with the theme that suits the widget's palette (light or dark), switching when the palette
// changes. It holds the object's JSON bytes as given; rendering happens on each setObject()
// or format change, on the GUI thread (one object is small: milliseconds at most).
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
    // an error message in the view, never as a crash or an empty pane.
    void setObject(const QByteArray &json);
    [[nodiscard]] QByteArray object() const { return m_json; }

    void setFormat(Format format);
    [[nodiscard]] Format format() const { return m_format; }

    // The rendered document, for tests and for "copy as YAML".
    [[nodiscard]] QTextDocument *document() const;
    [[nodiscard]] QString text() const;
    // The name of the KSyntaxHighlighting theme in use.
    [[nodiscard]] QString themeName() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    void applyTheme();

    QPlainTextEdit *m_editor; // owned (child)
    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter; // owned (child of the document)
    QByteArray m_json;
    Format m_format = Format::Yaml;
};

} // namespace Cachescope
