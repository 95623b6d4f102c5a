#include "ui/widgets/objectdiffview.h"

#include "core/util/linediff.h"

#include <QEvent>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

// A quarter of the tint over the base keeps the text's own colour readable on both a white
// and a near-black base.
QColor tint(const QColor &base, const QColor &colour)
{
    constexpr double weight = 0.25;
    return QColor::fromRgbF(static_cast<float>(base.redF() * (1 - weight) + colour.redF() * weight),
                            static_cast<float>(base.greenF() * (1 - weight) + colour.greenF() * weight),
                            static_cast<float>(base.blueF() * (1 - weight) + colour.blueF() * weight));
}

QStringList linesOf(const QString &text)
{
    if (text.isEmpty()) {
        return {};
    }
    QStringList lines = text.split(u'\n');
    if (text.endsWith(u'\n')) {
        lines.removeLast();
    }
    return lines;
}

} // namespace

ObjectDiffView::ObjectDiffView(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
{
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_editor);
}

ObjectDiffView::~ObjectDiffView() = default;

void ObjectDiffView::setTexts(const QString &oldText, const QString &newText)
{
    m_old = oldText;
    m_new = newText;
    m_hasTexts = true;
    m_message.clear();
    render();
}

void ObjectDiffView::clear()
{
    m_old.clear();
    m_new.clear();
    m_message.clear();
    m_hasTexts = false;
    render();
}

void ObjectDiffView::setMessage(const QString &message)
{
    m_old.clear();
    m_new.clear();
    m_hasTexts = false;
    m_message = message;
    render();
}

QTextDocument *ObjectDiffView::document() const
{
    return m_editor->document();
}

QString ObjectDiffView::text() const
{
    return m_editor->toPlainText();
}

QColor ObjectDiffView::addedBackground() const
{
    return tint(palette().color(QPalette::Base), QColor(0x2e, 0xcc, 0x40));
}

QColor ObjectDiffView::removedBackground() const
{
    return tint(palette().color(QPalette::Base), QColor(0xff, 0x41, 0x36));
}

void ObjectDiffView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        render();
    }
    QWidget::changeEvent(event);
}

void ObjectDiffView::render()
{
    m_editor->clear();
    if (!m_hasTexts) {
        m_editor->setPlaceholderText(m_message);
        return;
    }
    const QStringList oldLines = linesOf(m_old);
    const QStringList newLines = linesOf(m_new);
    const QList<LineDiff::Hunk> hunks = LineDiff::hunks(LineDiff::edits(oldLines, newLines));
    if (hunks.isEmpty()) {
        m_editor->setPlaceholderText(tr("No differences"));
        return;
    }

    QTextBlockFormat plain;
    QTextBlockFormat header;
    header.setBackground(palette().color(QPalette::AlternateBase));
    QTextBlockFormat added;
    added.setBackground(addedBackground());
    QTextBlockFormat removed;
    removed.setBackground(removedBackground());
    QTextCharFormat headerChars;
    headerChars.setForeground(palette().color(QPalette::PlaceholderText));

    QTextCursor cursor(m_editor->document());
    cursor.beginEditBlock();
    bool first = true;
    const auto line = [&](const QTextBlockFormat &format, const QString &text, const QTextCharFormat &chars = {}) {
        if (first) {
            cursor.setBlockFormat(format);
            first = false;
        } else {
            cursor.insertBlock(format);
        }
        cursor.insertText(text, chars);
    };
    for (const LineDiff::Hunk &hunk : hunks) {
        line(header, hunk.header(), headerChars);
        for (const LineDiff::Edit &edit : hunk.edits) {
            switch (edit.kind) {
            case LineDiff::Edit::Kind::Equal:
                line(plain, u' ' + oldLines.at(edit.oldLine));
                break;
            case LineDiff::Edit::Kind::Delete:
                line(removed, u'-' + oldLines.at(edit.oldLine));
                break;
            case LineDiff::Edit::Kind::Insert:
                line(added, u'+' + newLines.at(edit.newLine));
                break;
            }
        }
    }
    cursor.endEditBlock();
    m_editor->moveCursor(QTextCursor::Start);
}

} // namespace Cachescope
