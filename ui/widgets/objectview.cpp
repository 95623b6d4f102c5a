#include "ui/widgets/objectview.h"

#include "core/cache/kubeobject.h"
#include "core/kube/jsontoyaml.h"
#include "ui/models/objecthistory.h"
#include "ui/widgets/objecthistoryview.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QAction>
#include <QActionGroup>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QToolBar>
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
    , m_tabs(new QTabWidget(this))
    , m_editor(new QPlainTextEdit(this))
    , m_historyView(new ObjectHistoryView(this))
    , m_yamlAction(new QAction(tr("YAML"), this))
    , m_jsonAction(new QAction(tr("JSON"), this))
    , m_revealAction(new QAction(tr("Reveal Secret"), this))
    , m_copyNameAction(new QAction(tr("Copy Name"), this))
    , m_copyTextAction(new QAction(tr("Copy YAML"), this))
{
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setPlaceholderText(tr("No object selected"));
    m_highlighter = new KSyntaxHighlighting::SyntaxHighlighter(m_editor->document());

    auto *formats = new QActionGroup(this);
    for (QAction *action : {m_yamlAction, m_jsonAction}) {
        action->setCheckable(true);
        formats->addAction(action);
    }
    m_yamlAction->setChecked(true);
    connect(m_yamlAction, &QAction::triggered, this, [this] { setFormat(Format::Yaml); });
    connect(m_jsonAction, &QAction::triggered, this, [this] { setFormat(Format::Json); });

    m_revealAction->setCheckable(true);
    m_revealAction->setToolTip(tr("Show the values of this Secret's data"));
    connect(m_revealAction, &QAction::toggled, this, [this](bool checked) { setSecretsRevealed(checked); });

    m_copyNameAction->setIcon(QIcon::fromTheme(u"edit-copy"_s));
    connect(m_copyNameAction, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(m_name); });
    m_copyTextAction->setIcon(QIcon::fromTheme(u"edit-copy"_s));
    m_copyTextAction->setShortcut(QKeySequence::Copy);
    m_copyTextAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyTextAction, &QAction::triggered, this, [this] {
        // What is shown, so a masked Secret is copied masked.
        QGuiApplication::clipboard()->setText(m_editor->toPlainText());
    });

    auto *toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(m_yamlAction);
    toolBar->addAction(m_jsonAction);
    toolBar->addSeparator();
    toolBar->addAction(m_revealAction);
    toolBar->addSeparator();
    toolBar->addAction(m_copyNameAction);
    toolBar->addAction(m_copyTextAction);
    addAction(m_copyTextAction);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_editor, tr("Object"));
    m_tabs->addTab(m_historyView, tr("History"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolBar);
    layout->addWidget(m_tabs);

    applyTheme();
    updateActions();
}

ObjectView::~ObjectView() = default;

void ObjectView::setObject(const QByteArray &json, const QString &resource)
{
    m_json = json;
    m_resource = resource;

    const QJsonObject root = QJsonDocument::fromJson(json).object();
    const QJsonObject metadata = root.value(u"metadata"_s).toObject();
    const QString kind = root.value(u"kind"_s).toString();
    m_name = metadata.value(u"name"_s).toString();
    const QString uid = metadata.value(u"uid"_s).toString();
    const QString identity = uid.isEmpty() ? kind + u'/' + metadata.value(u"namespace"_s).toString() + u'/' + m_name : uid;
    // Invalid JSON has no kind: masking errs on the side of hiding when the resource says so.
    m_secret = ObjectHistory::isSecret(kind, resource);
    if (identity != m_identity || json.isEmpty()) {
        // Revealing was for the object the user chose to reveal, not for the next one.
        m_revealed = false;
        const QSignalBlocker blocker(m_revealAction);
        m_revealAction->setChecked(false);
        m_historyView->setSecretsRevealed(false);
    }
    m_identity = identity;
    updateActions();
    render();
}

void ObjectView::showObject(const QString &resource, const QString &key, const KubeObject &object)
{
    if (ObjectHistory *history = m_historyView->history()) {
        history->setCurrentKey(resource, key);
    }
    setObject(object.json(), resource);
}

void ObjectView::setHistory(ObjectHistory *history)
{
    m_historyView->setHistory(history);
}

void ObjectView::setFormat(Format format)
{
    if (m_format == format) {
        return;
    }
    m_format = format;
    (format == Format::Yaml ? m_yamlAction : m_jsonAction)->setChecked(true);
    m_historyView->setFormat(format);
    updateActions();
    render();
}

void ObjectView::setSecretsRevealed(bool revealed)
{
    revealed = revealed && m_secret;
    if (m_revealed == revealed) {
        return;
    }
    m_revealed = revealed;
    {
        const QSignalBlocker blocker(m_revealAction);
        m_revealAction->setChecked(revealed);
    }
    m_historyView->setSecretsRevealed(revealed);
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

QString ObjectView::renderText(const QByteArray &json, Format format, bool mask, const QString &resource, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error) {
            *error = tr("This object is not valid JSON: %1 at byte %2.").arg(parseError.errorString()).arg(parseError.offset);
        }
        return {};
    }
    if (document.isArray()) {
        return QString::fromUtf8(format == Format::Yaml ? jsonToYaml(document.array()) : document.toJson(QJsonDocument::Indented));
    }
    QJsonObject object = document.object();
    if (mask && ObjectHistory::isSecret(object.value(u"kind"_s).toString(), resource)) {
        object = ObjectHistory::maskSecretValues(std::move(object));
    }
    return QString::fromUtf8(format == Format::Yaml ? jsonToYaml(object) : QJsonDocument(object).toJson(QJsonDocument::Indented));
}

void ObjectView::render()
{
    if (m_json.isEmpty()) {
        m_editor->clear();
        return;
    }
    QString error;
    const QString text = renderText(m_json, m_format, !m_revealed, m_resource, &error);
    if (!error.isEmpty()) {
        m_highlighter->setDefinition({});
        m_editor->setPlainText(error);
        return;
    }
    m_highlighter->setDefinition(repository().definitionForName(m_format == Format::Yaml ? u"YAML"_s : u"JSON"_s));
    m_editor->setPlainText(text);
}

void ObjectView::updateActions()
{
    m_revealAction->setEnabled(m_secret);
    m_copyNameAction->setEnabled(!m_name.isEmpty());
    m_copyTextAction->setEnabled(!m_json.isEmpty());
    m_copyTextAction->setText(m_format == Format::Yaml ? tr("Copy YAML") : tr("Copy JSON"));
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
