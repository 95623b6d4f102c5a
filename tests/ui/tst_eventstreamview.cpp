#include "ui/widgets/eventstreamview.h"

#include "ui/models/eventstreamfilter.h"
#include "ui/models/eventstreammodel.h"

#include "testmain.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using Cachescope::EventStreamModel;
using Cachescope::EventStreamView;
using Cachescope::KubeObject;
using Cachescope::Notification;

namespace {

QList<Notification> adds(int first, int count, const QString &ns)
{
    QList<Notification> batch;
    for (int i = first; i < first + count; ++i) {
        const QString name = u"p"_s + QString::number(i);
        batch << Notification::add(
            ns + u'/' + name,
            *KubeObject::fromJson(
                uR"({"kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%3"}})"_s.arg(name, ns, QString::number(i)).toUtf8()),
            false);
    }
    return batch;
}

} // namespace

class TestEventStreamView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void controlsDriveTheFilter();
    void pauseActionPausesTheModel();
    void followKeepsTheNewestRowInView();
};

void TestEventStreamView::controlsDriveTheFilter()
{
    EventStreamModel model;
    EventStreamView view;
    view.setModel(&model);
    model.append(u"pods"_s, adds(0, 3, u"shop"_s));
    model.append(u"pods"_s, adds(3, 2, u"billing"_s));
    QCOMPARE(view.filter()->rowCount(), 5);

    // The namespace box lists what the stream has seen, after "All namespaces".
    QCOMPARE(view.namespaceBox()->count(), 3);
    view.namespaceBox()->setCurrentIndex(view.namespaceBox()->findData(u"billing"_s));
    QCOMPARE(view.filter()->rowCount(), 2);
    view.namespaceBox()->setCurrentIndex(0);

    view.addedAction()->setChecked(false);
    QCOMPARE(view.filter()->rowCount(), 0);
    view.addedAction()->setChecked(true);

    view.searchLine()->setText(u"p4"_s);
    QTRY_COMPARE(view.filter()->rowCount(), 1);
}

void TestEventStreamView::pauseActionPausesTheModel()
{
    EventStreamModel model;
    EventStreamView view;
    view.setModel(&model);
    view.pauseAction()->setChecked(true);
    QVERIFY(model.isPaused());
    model.append(u"pods"_s, adds(0, 4, u"shop"_s));
    QCOMPARE(view.filter()->rowCount(), 0);
    view.updateRate();
    QVERIFY2(view.rateLabel()->text().contains(u"4 held back"_s), qPrintable(view.rateLabel()->text()));
    model.setPaused(false);
    QVERIFY(!view.pauseAction()->isChecked());
    QCOMPARE(view.filter()->rowCount(), 4);
}

void TestEventStreamView::followKeepsTheNewestRowInView()
{
    EventStreamModel model;
    EventStreamView view;
    view.resize(600, 300);
    view.setModel(&model);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    model.append(u"pods"_s, adds(0, 200, u"shop"_s));
    QScrollBar *bar = view.table()->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());

    view.followAction()->setChecked(false);
    bar->setValue(0);
    model.append(u"pods"_s, adds(200, 50, u"shop"_s));
    QTRY_VERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), 0);

    view.followAction()->setChecked(true);
    QTRY_COMPARE(bar->value(), bar->maximum());
}

CACHESCOPE_TEST_MAIN(TestEventStreamView)
#include "tst_eventstreamview.moc"
