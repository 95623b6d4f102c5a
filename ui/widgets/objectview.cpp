#include "ui/widgets/objectview.h"

#include "core/kube/jsontoyaml.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QEvent>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QPlainTextEdit>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

// Loading the repository reads every syntax definition: KDE documents it as a moderately
// expensive operation to do once per process.
KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

} // namespace

ObjectView::ObjectView(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
{
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setPlaceholderText(tr("No object selected"));
    m_highlighter = new KSyntaxHighlighting::SyntaxHighlighter(m_editor->document());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_editor);

    applyTheme();
}

ObjectView::~ObjectView() = default;

void ObjectView::setObject(const QByteArray &json)
{
    m_json = json;
    render();
}

void ObjectView::setFormat(Format format)
{
    if (m_format == format) {
        return;
    }
    m_format = format;
    render();
}

QTextDocument *ObjectView::document() const
{
    return m_editor->document();
}

QString ObjectView::text() const
{
    return m_editor->toPlainText();
}

QString ObjectView::themeName() const
{
    return m_highlighter->theme().name();
}

void ObjectView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyTheme();
    }
    QWidget::changeEvent(event);
}

void ObjectView::render()
{
    if (m_json.isEmpty()) {
        m_editor->clear();
        return;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(m_json, &error);
    if (error.error != QJsonParseError::NoError) {
        m_highlighter->setDefinition({});
        m_editor->setPlainText(tr("This object is not valid JSON: %1 at byte %2.").arg(error.errorString()).arg(error.offset));
        return;
    }
    const bool yaml = m_format == Format::Yaml;
    m_highlighter->setDefinition(repository().definitionForName(yaml ? u"YAML"_s : u"JSON"_s));
    const QByteArray text =
        yaml ? jsonToYaml(document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object())) : document.toJson(QJsonDocument::Indented);
    m_editor->setPlainText(QString::fromUtf8(text));
}

void ObjectView::applyTheme()
{
    const auto theme = repository().themeForPalette(palette());
    if (theme.isValid() && theme.name() == m_highlighter->theme().name()) {
        return;
    }
    m_highlighter->setTheme(theme);
    m_highlighter->rehighlight();
}

} // namespace Cachescope
