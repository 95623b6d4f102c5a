#include "ui/widgets/welcomepage.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Welcome to Cachescope"), this))
    , m_text(new QLabel(this))
    , m_open(new QPushButton(tr("Open Kubeconfig…"), this))
    , m_demo(new QPushButton(tr("Explore the Demo Cluster"), this))
{
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setAlignment(Qt::AlignHCenter);
    m_text->setWordWrap(true);
    m_text->setAlignment(Qt::AlignHCenter);
    m_text->setTextFormat(Qt::PlainText);
    m_open->setObjectName(u"open"_s);
    m_open->setIcon(QIcon::fromTheme(u"document-open"_s));
    m_open->setDefault(true);
    m_demo->setObjectName(u"demo"_s);
    connect(m_open, &QPushButton::clicked, this, &WelcomePage::openKubeconfigRequested);
    connect(m_demo, &QPushButton::clicked, this, &WelcomePage::demoRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_open);
    buttons->addWidget(m_demo);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(m_title);
    layout->addSpacing(12);
    layout->addWidget(m_text);
    layout->addSpacing(18);
    layout->addLayout(buttons);
    layout->addStretch(3);
    setSearchedFiles({});
}

WelcomePage::~WelcomePage() = default;

void WelcomePage::setSearchedFiles(const QStringList &files)
{
    QStringList shown;
    for (const QString &file : files) {
        shown.append(QDir::toNativeSeparators(file));
    }
    const QString where = shown.isEmpty() ? tr("No kubeconfig was found.") : tr("No kubeconfig was found at %1.").arg(shown.join(u", "_s));
    m_text->setText(where + u"\n\n"_s +
                    tr("Open a kubeconfig file to explore your cluster through its informer cache, or explore a simulated cluster "
                       "with live churn that runs inside Cachescope."));
}

QString WelcomePage::text() const
{
    return m_text->text();
}

} // namespace Cachescope
