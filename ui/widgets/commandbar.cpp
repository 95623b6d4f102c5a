#include "ui/widgets/commandbar.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

// DetailDelegate draws a row's text with its detail after it, dimmed.
class DetailDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString detail = index.data(CommandBarModel::DetailRole).toString();
        if (!detail.isEmpty()) {
            option->text += u"   —  "_s + detail;
        }
    }
};

} // namespace

CommandBar::CommandBar(QWidget *parent)
    : QFrame(parent)
    , m_model(new CommandBarModel(this))
    , m_line(new QLineEdit(this))
    , m_list(new QListView(this))
{
    setObjectName(u"commandBar"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_line->setPlaceholderText(tr("Find an action, a kind (po, deploy, cm), a context, a namespace or an object; :kind jumps"));
    m_line->setClearButtonEnabled(true);
    m_line->installEventFilter(this);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new DetailDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_line, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_model->setQuery(text);
        m_list->setCurrentIndex(m_model->index(0, 0));
    });
    connect(m_list, &QListView::clicked, this, [this](const QModelIndex &index) { activate(index.row()); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_line);
    layout->addWidget(m_list);
    hide();
}

CommandBar::~CommandBar() = default;

void CommandBar::open(const QString &text)
{
    Q_EMIT aboutToOpen();
    place();
    show();
    raise();
    m_line->setText(text);
    m_model->setQuery(text); // also when the text was already there: the sources changed
    m_list->setCurrentIndex(m_model->index(0, 0));
    m_line->setFocus(Qt::ShortcutFocusReason);
    m_line->end(false);
}

void CommandBar::place()
{
    const QWidget *window = parentWidget();
    const int width = std::clamp(window->width() / 2, std::min(480, window->width()), window->width());
    const int height = std::min(window->height() * 2 / 3, 420);
    setGeometry((window->width() - width) / 2, window->height() / 12, width, height);
}

void CommandBar::activate(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        return;
    }
    const CommandBarModel::Entry entry = m_model->entry(row);
    hide();
    Q_EMIT entryActivated(entry);
}

bool CommandBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_line && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const int rows = m_model->rowCount();
        const int current = m_list->currentIndex().row();
        switch (key->key()) {
        case Qt::Key_Escape:
            hide();
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            activate(current);
            return true;
        case Qt::Key_Down:
            if (rows > 0) {
                m_list->setCurrentIndex(m_model->index((current + 1) % rows, 0));
            }
            return true;
        case Qt::Key_Up:
            if (rows > 0) {
                m_list->setCurrentIndex(m_model->index((current - 1 + rows) % rows, 0));
            }
            return true;
        default:
            break;
        }
    }
    if (watched == m_line && event->type() == QEvent::FocusOut && !m_list->underMouse()) {
        hide();
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace Cachescope
