#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace Cachescope {

// WelcomePage is what a first start without any kubeconfig shows in the table's place: where
// Cachescope looked (the files kubectl would read), and the two ways on — open a kubeconfig
// file, or explore the built-in demo cluster. It only asks (signals); the Explorer acts.
// GUI thread.
class WelcomePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomePage)

public:
    explicit WelcomePage(QWidget *parent = nullptr);
    ~WelcomePage() override;

    // setSearchedFiles() names the kubeconfig files that were looked for and not found.
    void setSearchedFiles(const QStringList &files);
    [[nodiscard]] QString text() const;
    [[nodiscard]] QPushButton *openButton() const { return m_open; }
    [[nodiscard]] QPushButton *demoButton() const { return m_demo; }

Q_SIGNALS:
    void openKubeconfigRequested();
    void demoRequested();

private:
    QLabel *m_title; // owned (child)
    QLabel *m_text; // owned (child)
    QPushButton *m_open; // owned (child)
    QPushButton *m_demo; // owned (child)
};

} // namespace Cachescope
