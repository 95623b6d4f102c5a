// PipelineView on the offscreen platform, drawing a PipelineModel of a real informer: it renders
// without a single warning (in light and dark palettes and at a device pixel ratio of 2) and
// paints the states it should: the reflector watching against a healthy server, backing off
// against a failing one, the queue kind, and the work queue's box once a controller attaches.
// The test reads the texts the view painted, never pixels.
#include "tst_informersim.h"

// A DelayingQueue is enough: the pipeline reads only Queue::metrics().
#include "core/workqueue/delayingqueue.h"
#include "ui/models/pipelinemodel.h"
#include "ui/widgets/pipelineview.h"

#include "testmain.h"

#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using Stage = PipelineModel::Stage;

class TestPipelineView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void paintsWithoutModel();
    void paintsReflectorState_data();
    void paintsReflectorState();
    void paintsWorkQueueWhenAttached();
};

void TestPipelineView::init()
{
    // Any warning while rendering (a painter misuse, a bad geometry) fails the test.
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void TestPipelineView::paintsWithoutModel()
{
    PipelineView view;
    view.resize(view.sizeHint());
    view.grab();
    QCOMPARE(view.paintedTexts(), QStringList{u"No informer selected"_s});
}

void TestPipelineView::paintsReflectorState_data()
{
    QTest::addColumn<QString>("faults");
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<QString>("state");
    QTest::addColumn<bool>("dark");
    QTest::newRow("healthy server: watching, RealFIFO, light") << QString() << int(DeltaQueue::Kind::RealFifo) << u"watching"_s << false;
    QTest::newRow("healthy server: watching, DeltaFIFO, dark") << QString() << int(DeltaQueue::Kind::DeltaFifo) << u"watching"_s << true;
    QTest::newRow("failing server: backing off, light") << u"error=1:500"_s << int(DeltaQueue::Kind::RealFifo) << u"backing off"_s << false;
    QTest::newRow("failing server: backing off, dark") << u"error=1:500"_s << int(DeltaQueue::Kind::RealFifo) << u"backing off"_s << true;
}

void TestPipelineView::paintsReflectorState()
{
    QFETCH(QString, faults);
    QFETCH(int, queueKind);
    QFETCH(QString, state);
    QFETCH(bool, dark);

    Sim::SimOptions options;
    options.pods = 20;
    options.seed = 9;
    options.faults = faults;
    CachescopeTest::InformerSim sim(options);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    SharedIndexInformer *informer = sim.informer(u"pods"_s, u"Pod"_s, CachescopeTest::podIndexers(), [&](SharedIndexInformer::Options &informerOptions) {
        informerOptions.queueKind = DeltaQueue::Kind(queueKind);
        // Long enough that the state is seen between attempts.
        informerOptions.reflector.backoff.initial = std::chrono::milliseconds(2000);
        informerOptions.reflector.backoff.cap = std::chrono::milliseconds(2000);
    });
    // Sampled by hand, so that the state painted is the state the test waited for.
    PipelineModel model;
    model.setInterval(std::chrono::milliseconds(0));
    model.setInformer(informer);
    PipelineView view;
    if (dark) {
        QPalette palette;
        palette.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        palette.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
        palette.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        palette.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        view.setPalette(palette);
    }
    view.setModel(&model);
    view.resize(1100, 420);
    const QString informerState = faults.isEmpty() ? u"synced"_s : u"syncing"_s;
    QVERIFY(QTest::qWaitFor(
        [&] {
            model.sample();
            return model.stateText(Stage::Reflector) == state && model.stateText(Stage::Informer) == informerState;
        },
        30000));

    const QImage image = view.grab().toImage();
    QVERIFY(!image.isNull());
    const QStringList texts = view.paintedTexts();
    QVERIFY2(texts.contains(state), qPrintable(texts.join(u" | "_s)));
    for (const QString &expected : {u"ListerWatcher"_s,
                                    u"Reflector"_s,
                                    PipelineModel::queueKindName(DeltaQueue::Kind(queueKind)),
                                    u"Informer"_s,
                                    u"Indexer"_s,
                                    u"Handlers"_s,
                                    u"WorkQueue"_s,
                                    u"no controller attached"_s,
                                    u"pods"_s}) {
        QVERIFY2(texts.contains(expected), qPrintable(expected + u" not in: "_s + texts.join(u" | "_s)));
    }
    if (!faults.isEmpty()) {
        QVERIFY2(std::any_of(texts.cbegin(), texts.cend(), [](const QString &text) { return text.startsWith(u"last error: "_s); }),
                 qPrintable(texts.join(u" | "_s)));
        QVERIFY(view.toolTipFor(Stage::Reflector).contains(u"backing off"_s));
    }
    QVERIFY2(texts.contains(informerState), qPrintable(texts.join(u" | "_s)));

    // High DPI: the same paint into a 2× image, again without warnings, again with the state.
    QImage hiDpi(view.size() * 2, QImage::Format_ARGB32_Premultiplied);
    hiDpi.setDevicePixelRatio(2);
    hiDpi.fill(Qt::transparent);
    view.render(&hiDpi);
    QVERIFY(view.paintedTexts().contains(state));

    // Tooltips name the box under the pointer.
    const std::optional<Stage> reflector = view.stageAt(QPointF(view.width() * 0.375, view.height() * 0.25));
    QCOMPARE(reflector, std::optional<Stage>(Stage::Reflector));
    QVERIFY(view.toolTipFor(Stage::Reflector).startsWith(u"Reflector: "_s + state));
}

void TestPipelineView::paintsWorkQueueWhenAttached()
{
    Sim::SimOptions options;
    options.pods = 10;
    CachescopeTest::InformerSim sim(options);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    SharedIndexInformer *informer = sim.informer(u"pods"_s, u"Pod"_s, {});
    PipelineModel model;
    model.setInterval(std::chrono::milliseconds(0));
    model.setInformer(informer);
    auto queue = std::make_shared<DelayingQueue>(nullptr, u"reconciler"_s);
    queue->add(u"default/a"_s);
    queue->add(u"default/b"_s);
    model.setWorkQueue(queue);
    PipelineView view;
    view.setModel(&model);
    view.resize(1100, 420);
    view.grab();
    const QStringList texts = view.paintedTexts();
    QVERIFY2(texts.contains(u"WorkQueue reconciler"_s), qPrintable(texts.join(u" | "_s)));
    QVERIFY(texts.contains(u"depth 2"_s));
    QVERIFY(!texts.contains(u"no controller attached"_s));
    queue->shutDown();
}

CACHESCOPE_TEST_MAIN(TestPipelineView)
#include "tst_pipelineview.moc"
