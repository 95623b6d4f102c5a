#include "ui/widgets/objectview.h"

#include "core/cache/kubeobject.h"
#include "core/kube/jsontoyaml.h"
#include "core/util/linediff.h"
#include "ui/models/objecthistory.h"
#include "ui/widgets/logview.h"
#include "ui/widgets/objecteventsview.h"
#include "ui/widgets/objecthistoryview.h"
#include "ui/widgets/objectrelationsview.h"

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
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextCursor>
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
    , m_relationsView(new ObjectRelationsView(this))
    , m_eventsView(new ObjectEventsView(this))
    , m_logView(new LogView(this))
    , m_yamlAction(new QAction(tr("YAML"), this))
    , m_jsonAction(new QAction(tr("JSON"), this))
    , m_revealAction(new QAction(tr("Reveal Secret"), this))
    , m_copyNameAction(new QAction(tr("Copy Name"), this))
    , m_copyTextAction(new QAction(tr("Copy YAML"), this))
    , m_pinAction(new QAction(tr("Pin"), this))
    , m_banner(new QLabel(this))
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
    // No Ctrl+C here: that stays the editor's copy of the selected text.
    connect(m_copyTextAction, &QAction::triggered, this, [this] {
        // What is shown, so a masked Secret is copied masked.
        QGuiApplication::clipboard()->setText(m_editor->toPlainText());
    });

    m_pinAction->setCheckable(true);
    m_pinAction->setToolTip(tr("Keep this version shown while the object changes"));
    connect(m_pinAction, &QAction::toggled, this, &ObjectView::setPinned);

    m_banner->setObjectName(u"banner"_s);
    m_banner->setWordWrap(true);
    m_banner->setMargin(6);
    m_banner->setAutoFillBackground(true);
    m_banner->setBackgroundRole(QPalette::ToolTipBase);
    m_banner->setForegroundRole(QPalette::ToolTipText);
    m_banner->hide();

    // The lines an update changed stay marked this long.
    m_markTimer.setSingleShot(true);
    m_markTimer.setInterval(std::chrono::seconds(3));
    connect(&m_markTimer, &QTimer::timeout, this, [this] { markLines({}); });

    auto *toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(m_yamlAction);
    toolBar->addAction(m_jsonAction);
    toolBar->addSeparator();
    toolBar->addAction(m_revealAction);
    toolBar->addSeparator();
    toolBar->addAction(m_copyNameAction);
    toolBar->addAction(m_copyTextAction);
    toolBar->addSeparator();
    toolBar->addAction(m_pinAction);

    m_tabs->setDocumentMode(true);
    // Five tabs in a side pane: they share its width (titles elided) rather than scroll.
    m_tabs->setUsesScrollButtons(false);
    m_tabs->setElideMode(Qt::ElideRight);
    m_tabs->addTab(m_editor, tr("Object"));
    m_tabs->addTab(m_historyView, tr("History"));
    m_tabs->addTab(m_relationsView, m_relationsView->tabTitle());
    m_tabs->addTab(m_eventsView, m_eventsView->tabTitle());
    connect(m_relationsView, &ObjectRelationsView::tabTitleChanged, this, [this] {
        m_tabs->setTabText(m_tabs->indexOf(m_relationsView), m_relationsView->tabTitle());
    });
    connect(m_eventsView, &ObjectEventsView::tabTitleChanged, this, [this] { m_tabs->setTabText(m_tabs->indexOf(m_eventsView), m_eventsView->tabTitle()); });
    m_tabs->addTab(m_logView, tr("Logs"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_logView), false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolBar);
    layout->addWidget(m_banner);
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
    m_shownResourceVersion = metadata.value(u"resourceVersion"_s).toString();
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
    m_followResource = resource;
    m_followKey = key;
    m_newestJson = object.json();
    m_newerVersions = 0;
    m_deleted = false;
    m_pinned = false;
    {
        const QSignalBlocker blocker(m_pinAction);
        m_pinAction->setChecked(false);
    }
    markLines({});
    setObject(object.json(), resource);
    updateBanner();
    m_tabs->setTabVisible(m_tabs->indexOf(m_logView), m_logView->setObject(object));
}

void ObjectView::setHistory(ObjectHistory *history)
{
    if (ObjectHistory *previous = m_historyView->history()) {
        disconnect(previous, nullptr, this, nullptr);
    }
    m_historyView->setHistory(history);
    if (history != nullptr) {
        connect(history, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int first, int last) {
            if (!parent.isValid()) {
                onHistoryRows(first, last);
            }
        });
    }
}

void ObjectView::onHistoryRows(int first, int last)
{
    const ObjectHistory *history = m_historyView->history();
    if (m_followKey.isEmpty() || history->currentResource() != m_followResource || history->currentKey() != m_followKey) {
        return;
    }
    for (int row = first; row <= last; ++row) {
        const ObjectHistory::Entry entry = history->entry(row);
        // A tombstone that knew nothing leaves the last state as it was.
        if (entry.object.isValid()) {
            m_newestJson = entry.object.json();
        }
        m_deleted = entry.type == Notification::Type::Delete;
        if (m_pinned) {
            ++m_newerVersions;
        } else if (entry.object.isValid() && entry.object.json() != m_json) {
            follow(entry.object.json());
        }
    }
    updateBanner();
}

void ObjectView::follow(const QByteArray &json)
{
    const QStringList before = m_editor->toPlainText().split(u'\n');
    QScrollBar *vertical = m_editor->verticalScrollBar();
    QScrollBar *horizontal = m_editor->horizontalScrollBar();
    const int top = vertical->value();
    const int left = horizontal->value();
    setObject(json, m_resource);
    vertical->setValue(top);
    horizontal->setValue(left);
    const QStringList after = m_editor->toPlainText().split(u'\n');
    QList<int> changed;
    for (const LineDiff::Edit &edit : LineDiff::edits(before, after)) {
        if (edit.kind == LineDiff::Edit::Kind::Insert) {
            changed.append(edit.newLine);
        }
    }
    markLines(changed);
}

void ObjectView::markLines(const QList<int> &lines)
{
    m_changedLines = lines;
    QList<QTextEdit::ExtraSelection> selections;
    QColor background = palette().color(QPalette::Highlight);
    background.setAlpha(70);
    for (const int line : lines) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(m_editor->document()->findBlockByNumber(line));
        selection.format.setBackground(background);
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections.append(selection);
    }
    m_editor->setExtraSelections(selections);
    if (lines.isEmpty()) {
        m_markTimer.stop();
    } else {
        m_markTimer.start();
    }
}

void ObjectView::setPinned(bool pinned)
{
    if (m_pinned == pinned) {
        return;
    }
    m_pinned = pinned;
    {
        const QSignalBlocker blocker(m_pinAction);
        m_pinAction->setChecked(pinned);
    }
    m_newerVersions = 0;
    if (!pinned && !m_newestJson.isEmpty() && m_newestJson != m_json) {
        follow(m_newestJson);
    }
    updateBanner();
}

QString ObjectView::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void ObjectView::updateBanner()
{
    QString text;
    if (m_pinned) {
        text = tr("Pinned at resourceVersion %1: %n newer version(s) since.", nullptr, m_newerVersions).arg(m_shownResourceVersion);
        if (m_deleted) {
            text += u' ' + tr("The object has been deleted.");
        }
    } else if (m_deleted) {
        text = tr("Deleted: this is its last known state (resourceVersion %1).").arg(m_shownResourceVersion);
    }
    m_banner->setText(text);
    m_banner->setVisible(!text.isEmpty());
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
