// ResourceTableModel fed by real informers against an in-process SimCluster: through the initial
// list, churn (adds, updates, deletes), relists and a context switch, under
// QAbstractItemModelTester, the model's rows end equal to the informer's indexer (keys and
// resourceVersions), with exact signals and no reset after setInformer(). Batches applied by
// hand check the shape of the signals: one removal of the tail per batch, one insertion.
#include "core/cache/apilisterwatcher.h"
#include "core/cache/cluster.h"
#include "core/cache/keys.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

using State = QHash<QString, QString>; // key -> resourceVersion

State cacheState(const SharedIndexInformer &informer)
{
    State state;
    const QList<KubeObject> objects = informer.indexer().list();
    for (const KubeObject &object : objects) {
        state.insert(metaNamespaceKey(object), object.resourceVersion());
    }
    return state;
}

State modelState(const ResourceTableModel &model)
{
    State state;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        state.insert(index.data(ResourceTableRoles::KeyRole).toString(), index.data(ResourceTableRoles::ResourceVersionRole).toString());
    }
    return state;
}

State truthState(const Sim::SimCluster &sim, const QString &resource)
{
    State state;
    const QHash<QString, quint64> truth = sim.truth(resource);
    for (auto it = truth.cbegin(); it != truth.cend(); ++it) {
        state.insert(it.key(), QString::number(it.value()));
    }
    return state;
}

KubeObject configMap(const QString &name, const QString &resourceVersion)
{
    const QByteArray json = QStringLiteral(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%1","namespace":"ns","resourceVersion":"%2"}})")
                                .arg(name, resourceVersion)
                                .toUtf8();
    return *KubeObject::fromJson(json);
}

// Connection to a SimCluster and informers on it, for one test: the client and the reflectors on
// the Cluster's worker thread, as in the app.
struct SimFixture : CachescopeTest::SimClusterFixture
{
    using SimClusterFixture::SimClusterFixture;

    std::unique_ptr<SharedIndexInformer> informer(const QString &plural, const QString &kind)
    {
        ApiListerWatcher::Target target;
        target.resource.gvr = GroupVersionResource(QString(), u"v1"_s, plural);
        target.resource.kind = kind;
        target.resource.namespaced = true;
        target.idleTimeout = std::chrono::milliseconds(2000);
        SharedIndexInformer::Options options;
        options.name = plural;
        options.reflector.pageSize = 40; // several pages, so that progress is reported
        options.reflector.useWatchList = false; // paged: progress comes page by page
        options.reflector.backoff.initial = std::chrono::milliseconds(50);
        options.reflector.backoff.cap = std::chrono::milliseconds(500);
        options.reflector.minWatchTimeout = std::chrono::seconds(2);
        return std::make_unique<SharedIndexInformer>(std::make_unique<ApiListerWatcher>(cluster->client(), target), cluster->workerThread(), options);
    }
};

} // namespace

class TestResourceTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void followsInformer_data();
    void followsInformer();
    void contextSwitchShowsOnlyTheNewInformer();
    void aLargeBatchIsAppliedInSlicesBetweenTurnsOfTheEventLoop();
    void batchSignals_data();
    void batchSignals();
    void agesTickWithOneSignal();
    void textPrefixOrdersAsTheText_data();
    void textPrefixOrdersAsTheText();
    void prefixWordSaysWhatTheTextsHold_data();
    void prefixWordSaysWhatTheTextsHold();
    void packTextIsTextPrefixWordByWord_data();
    void packTextIsTextPrefixWordByWord();
    void orderedBitsOrderAsTheNumbers_data();
    void orderedBitsOrderAsTheNumbers();
};

void TestResourceTableModel::followsInformer_data()
{
    QTest::addColumn<QString>("disturbance");
    QTest::addColumn<bool>("registerLate");

    QTest::newRow("churn: adds, updates and deletes arrive as exact row changes") << u"churn"_s << false;
    QTest::newRow("a handler registered after sync catches up through synthetic adds") << u"churn"_s << true;
    QTest::newRow("relist after 410 Gone on every watch") << u"gone"_s << false;
    QTest::newRow("a server restart drops every watch") << u"restart"_s << false;
}

void TestResourceTableModel::followsInformer()
{
    QFETCH(QString, disturbance);
    QFETCH(bool, registerLate);

    Sim::SimOptions options;
    options.pods = 150;
    options.history = 200;
    options.historyWindowMs = 0;
    options.bookmarkIntervalMs = 500;
    options.seed = 11;
    SimFixture fixture(options);
    QString error;
    QVERIFY2(fixture.start(&error), qPrintable(error));
    auto informer = fixture.informer(u"pods"_s, u"Pod"_s);

    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy progress(&model, &ResourceTableModel::progressChanged);
    QSignalSpy synced(&model, &ResourceTableModel::syncedChanged);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    if (!registerLate) {
        model.setInformer(informer.get());
    }
    informer->run();
    if (registerLate) {
        QTRY_VERIFY_WITH_TIMEOUT(informer->hasSynced(), 30000);
        model.setInformer(informer.get());
    }
    QTRY_VERIFY_WITH_TIMEOUT(model.hasSynced(), 30000);
    // Synced means every object of the first list is a row already.
    QCOMPARE(model.rowCount(), int(truthState(fixture.sim, u"pods"_s).size()));
    QCOMPARE(modelState(model), cacheState(*informer));
    if (!registerLate) {
        QVERIFY(progress.count() > 1); // pages of 40 of 150+ objects
    }
    QCOMPARE(synced.count(), 1);
    resets.clear();

    fixture.sim.setChurn(300);
    if (disturbance == u"gone") {
        QVERIFY(fixture.sim.faults().setSpec(u"gone=1"_s, &error));
        QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.relists >= 1, 30000);
        fixture.sim.faults().clear();
    } else if (disturbance == u"restart") {
        const quint64 watches = informer->counters().reflector.watchesOpened;
        fixture.sim.restart();
        // A new watch opens (resuming, or after a relist when its resourceVersion is too old).
        QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.watchesOpened > watches, 30000);
    }
    // Churn until the model has seen deletions and changes of its own rows.
    QTRY_VERIFY_WITH_TIMEOUT(removed.count() >= 3 && changed.count() >= 10, 30000);
    fixture.sim.churn(200);
    fixture.sim.setChurn(0);

    QTRY_COMPARE_WITH_TIMEOUT(cacheState(*informer), truthState(fixture.sim, u"pods"_s), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(modelState(model), cacheState(*informer), 10000);
    QCOMPARE(model.rowCount(), int(informer->indexer().size()));
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString key = model.index(row, 0).data(ResourceTableRoles::KeyRole).toString();
        QCOMPARE(model.rowOfKey(key), row);
    }
    QCOMPARE(resets.count(), 0);
    informer->stop();
}

void TestResourceTableModel::contextSwitchShowsOnlyTheNewInformer()
{
    Sim::SimOptions options;
    options.pods = 60;
    options.seed = 5;
    SimFixture fixture(options);
    QString error;
    QVERIFY2(fixture.start(&error), qPrintable(error));
    auto pods = fixture.informer(u"pods"_s, u"Pod"_s);
    auto configMaps = fixture.informer(u"configmaps"_s, u"ConfigMap"_s);
    pods->run();
    configMaps->run();

    ResourceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setInformer(pods.get());
    QTRY_VERIFY_WITH_TIMEOUT(model.hasSynced(), 30000);
    QCOMPARE(modelState(model), cacheState(*pods));

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setColumns(ResourceColumns::forKind(u"ConfigMap"_s, true));
    model.setInformer(configMaps.get());
    QCOMPARE(resets.count(), 2);
    QVERIFY(!model.hasSynced());
    QTRY_VERIFY_WITH_TIMEOUT(model.hasSynced(), 30000);
    fixture.sim.setChurn(300); // pods change, the model must not notice
    QTRY_VERIFY_WITH_TIMEOUT(cacheState(*pods) != truthState(fixture.sim, u"pods"_s) || pods->counters().reflector.events > 20, 30000);
    fixture.sim.setChurn(0);
    QTRY_COMPARE_WITH_TIMEOUT(cacheState(*configMaps), truthState(fixture.sim, u"configmaps"_s), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(modelState(model), cacheState(*configMaps), 10000);
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(model.objectAt(row).kind(), u"ConfigMap"_s);
    }
    // Switching to none empties the table.
    model.setInformer(nullptr);
    QCOMPARE(model.rowCount(), 0);
    pods->stop();
    configMaps->stop();
}

// A handler registered after the informer synced gets its whole cache at once, as the table
// gets a first list when it ends: one batch of 20,000 rows. It is applied a slice at a time,
// the event loop turning between slices (a zero-interval timer ticks), and "synced" waits for
// the last slice.
void TestResourceTableModel::aLargeBatchIsAppliedInSlicesBetweenTurnsOfTheEventLoop()
{
    Sim::SimOptions options;
    options.pods = 20000;
    options.seed = 3;
    SimFixture fixture(options);
    QString error;
    QVERIFY2(fixture.start(&error), qPrintable(error));
    auto informer = fixture.informer(u"pods"_s, u"Pod"_s);
    informer->run();
    QTRY_VERIFY_WITH_TIMEOUT(informer->hasSynced(), 60000);

    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    int turns = 0;
    QTimer turn;
    turn.setInterval(0);
    QObject::connect(&turn, &QTimer::timeout, &turn, [&turns] { ++turns; });
    turn.start();
    struct Slice
    {
        int added;
        qsizetype backlogAfter;
        int turnsBefore;
    };
    QList<Slice> slices;
    QObject::connect(&model, &ResourceTableModel::batchApplied, &model, [&](int added, int, int) { slices.append({added, model.backlog(), turns}); });
    int rowsWhenSynced = -1;
    qsizetype backlogWhenSynced = -1;
    QObject::connect(&model, &ResourceTableModel::syncedChanged, &model, [&](bool synced) {
        if (synced) {
            rowsWhenSynced = model.rowCount();
            backlogWhenSynced = model.backlog();
        }
    });
    model.setInformer(informer.get());
    QTRY_VERIFY_WITH_TIMEOUT(model.hasSynced(), 60000);

    QCOMPARE(rowsWhenSynced, 20000);
    QCOMPARE(backlogWhenSynced, qsizetype(0));
    QCOMPARE(modelState(model), cacheState(*informer));
    // A slice that left a backlog behind was followed by a turn of the event loop before the next.
    int split = 0;
    for (qsizetype i = 0; i + 1 < slices.size(); ++i) {
        if (slices.at(i).backlogAfter > 0) {
            ++split;
            QVERIFY2(slices.at(i + 1).turnsBefore > slices.at(i).turnsBefore, qPrintable(u"slice %1 of %2"_s.arg(i + 1).arg(slices.size())));
        }
    }
    QVERIFY2(split >= 1, qPrintable(u"%1 batches, none left a backlog"_s.arg(slices.size())));
    informer->stop();
}

void TestResourceTableModel::batchSignals_data()
{
    QTest::addColumn<QStringList>("initial");
    QTest::addColumn<QStringList>("batch"); // "+name@rv", "~name@rv", "-name"
    QTest::addColumn<QStringList>("expected"); // names after the batch, any order
    QTest::addColumn<int>("removals");
    QTest::addColumn<int>("insertions");

    const QStringList six{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s};
    QTest::newRow("deleting inside fills holes from the tail, one removal")
        << six << QStringList{u"-a"_s, u"-c"_s} << QStringList{u"b"_s, u"d"_s, u"e"_s, u"f"_s} << 1 << 0;
    QTest::newRow("deleting the tail moves nothing") << six << QStringList{u"-e"_s, u"-f"_s} << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s} << 1 << 0;
    QTest::newRow("deleting inside and in the tail at once") << six << QStringList{u"-b"_s, u"-f"_s, u"-d"_s} << QStringList{u"a"_s, u"c"_s, u"e"_s} << 1 << 0;
    QTest::newRow("deleting everything") << six << QStringList{u"-a"_s, u"-b"_s, u"-c"_s, u"-d"_s, u"-e"_s, u"-f"_s} << QStringList{} << 1 << 0;
    QTest::newRow("adds of one batch are one insertion")
        << six << QStringList{u"+x@1"_s, u"~b@2"_s, u"+y@1"_s, u"-a"_s} << QStringList{u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"x"_s, u"y"_s} << 1 << 1;
    QTest::newRow("an update of an unknown key adds it") << QStringList{u"a"_s} << QStringList{u"~z@3"_s} << QStringList{u"a"_s, u"z"_s} << 0 << 1;
    QTest::newRow("a delete of an unknown key is ignored") << QStringList{u"a"_s} << QStringList{u"-z"_s} << QStringList{u"a"_s} << 0 << 0;
}

void TestResourceTableModel::batchSignals()
{
    QFETCH(QStringList, initial);
    QFETCH(QStringList, batch);
    QFETCH(QStringList, expected);
    QFETCH(int, removals);
    QFETCH(int, insertions);

    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"ConfigMap"_s, true));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QList<Notification> start;
    for (const QString &name : std::as_const(initial)) {
        start.append(Notification::add(u"ns/"_s + name, configMap(name, u"1"_s), true));
    }
    model.applyBatch(start);
    QCOMPARE(model.rowCount(), initial.size());

    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QList<Notification> notifications;
    for (const QString &step : std::as_const(batch)) {
        const QString name = step.mid(1).section(u'@', 0, 0);
        const QString rv = step.section(u'@', 1);
        const QString key = u"ns/"_s + name;
        if (step.front() == u'+') {
            notifications.append(Notification::add(key, configMap(name, rv), false));
        } else if (step.front() == u'~') {
            notifications.append(Notification::update(key, configMap(name, u"1"_s), configMap(name, rv)));
        } else {
            notifications.append(Notification::remove(key, configMap(name, u"1"_s)));
        }
    }
    model.applyBatch(notifications);

    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row) {
        names.append(model.index(row, 0).data(ResourceTableRoles::NameRole).toString());
        QCOMPARE(model.rowOfKey(u"ns/"_s + names.last()), row);
    }
    names.sort();
    QCOMPARE(names, expected);
    QCOMPARE(removed.count(), removals);
    QCOMPARE(inserted.count(), insertions);
    if (removals == 1) {
        // The removed range is the tail of the table as it was.
        qsizetype deleted = 0;
        for (const QString &step : std::as_const(batch)) {
            deleted += step.front() == u'-' && initial.contains(step.mid(1)) ? 1 : 0;
        }
        QCOMPARE(removed.at(0).at(1).toInt(), int(initial.size() - deleted));
        QCOMPARE(removed.at(0).at(2).toInt(), int(initial.size() - 1));
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        const KubeObject object = model.objectAt(row);
        const bool live = batch.contains(u"+"_s + object.name() + u'@' + object.resourceVersion()) ||
            batch.contains(u"~"_s + object.name() + u'@' + object.resourceVersion());
        // Rows changed live flash; the initial list does not.
        QCOMPARE(model.index(row, 0).data(ResourceTableRoles::ChangedAtRole).toLongLong() > 0, live);
    }
}

void TestResourceTableModel::agesTickWithOneSignal()
{
    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"ConfigMap"_s, true));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QList<Notification> start;
    for (int i = 0; i < 50; ++i) {
        start.append(Notification::add(u"ns/c"_s + QString::number(i), configMap(u"c"_s + QString::number(i), u"1"_s), true));
    }
    model.applyBatch(start);
    model.setAgeTickInterval(std::chrono::milliseconds(20));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.wait(5000));
    const int ageColumn = int(model.columns().indexOf(ResourceColumns::Field::Age));
    QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(0, ageColumn));
    QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(49, ageColumn));
    QCOMPARE(changed.at(0).at(2).value<QList<int>>(), QList<int>{Qt::DisplayRole});
}

void TestResourceTableModel::textPrefixOrdersAsTheText_data()
{
    QTest::addColumn<QString>("left");
    QTest::addColumn<QString>("right");
    QTest::addColumn<bool>("decides"); // whether the prefixes differ

    QTest::newRow("first character") << u"a"_s << u"b"_s << true;
    QTest::newRow("a text before its extensions") << u"ab"_s << u"abc"_s << true;
    QTest::newRow("empty before anything") << QString() << u"a"_s << true;
    QTest::newRow("8th character") << u"web-123a"_s << u"web-123b"_s << true;
    QTest::newRow("9th character: the prefixes tie") << u"web-1234a"_s << u"web-1234b"_s << false;
    QTest::newRow("equal texts tie") << u"db-0"_s << u"db-0"_s << false;
    QTest::newRow("upper case before lower case, as QString::compare") << u"Web"_s << u"web"_s << true;
    QTest::newRow("Latin-1 after ASCII") << u"\u00e9t\u00e9"_s << u"zz"_s << true;
    QTest::newRow("U+00FD before U+00FE") << u"\u00fd"_s << u"\u00fe"_s << true;
    QTest::newRow("U+00FE and above tie") << u"\u00fe"_s << u"\u65e5"_s << false;
    QTest::newRow("what follows U+00FE is not packed") << u"x\u4e00a"_s << u"x\u4e00b"_s << false;
    QTest::newRow("Latin-1 before CJK") << u"\u00e9"_s << u"\u65e5"_s << true;
    QTest::newRow("ASCII before CJK") << u"z"_s << u"\u65e5"_s << true;
}

// A prefix that differs orders two texts as QString::compare() does; one that ties leaves it to
// the texts. At an offset, the same holds for what follows it.
void TestResourceTableModel::textPrefixOrdersAsTheText()
{
    QFETCH(QString, left);
    QFETCH(QString, right);
    QFETCH(bool, decides);

    const quint64 a = ResourceTableModel::textPrefix(left);
    const quint64 b = ResourceTableModel::textPrefix(right);
    QCOMPARE(a != b, decides);
    if (decides) {
        QCOMPARE(a < b, QString::compare(left, right, Qt::CaseSensitive) < 0);
        QCOMPARE(b < a, QString::compare(right, left, Qt::CaseSensitive) < 0);
    }
    const quint64 shiftedA = ResourceTableModel::textPrefix(QString(u"namespace/"_s + left), 10);
    const quint64 shiftedB = ResourceTableModel::textPrefix(QString(u"namespace/"_s + right), 10);
    QCOMPARE(shiftedA, a);
    QCOMPARE(shiftedB, b);
}

void TestResourceTableModel::prefixWordSaysWhatTheTextsHold_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<ResourceTableModel::PrefixWord>("expected");

    using Word = ResourceTableModel::PrefixWord;
    QTest::newRow("empty") << QString() << 0 << Word::Ended;
    QTest::newRow("shorter than a word") << u"web"_s << 0 << Word::Ended;
    QTest::newRow("seven characters") << u"backend"_s << 0 << Word::Ended;
    QTest::newRow("eight characters") << u"web-123a"_s << 0 << Word::Whole;
    QTest::newRow("past the end of eight") << u"web-123a"_s << 8 << Word::Ended;
    QTest::newRow("a longer text") << u"checkout-service"_s << 0 << Word::Whole;
    QTest::newRow("U+00FE first") << u"\u00feweb-123a"_s << 0 << Word::Inexact;
    QTest::newRow("U+00FE last of eight") << u"web-123\u00fe"_s << 0 << Word::Inexact;
    QTest::newRow("CJK at an offset") << u"namespace/\u65e5\u672c"_s << 8 << Word::Inexact;
    QTest::newRow("U+00FD is exact") << u"web-12\u00fd3"_s << 0 << Word::Whole;
}

// Two texts whose words are equal: Whole says the next 8 characters tell, Ended that the texts
// are equal, Inexact that the texts themselves must be compared.
void TestResourceTableModel::prefixWordSaysWhatTheTextsHold()
{
    QFETCH(QString, text);
    QFETCH(int, offset);
    QFETCH(ResourceTableModel::PrefixWord, expected);

    QCOMPARE(ResourceTableModel::prefixWord(ResourceTableModel::textPrefix(text, offset)), expected);
}

void TestResourceTableModel::packTextIsTextPrefixWordByWord_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("exactWords"); // words packed before the text ends or U+00FE stops it

    QTest::newRow("empty") << QString() << 4;
    QTest::newRow("shorter than a word") << u"web"_s << 4;
    QTest::newRow("one word exactly") << u"web-123a"_s << 4;
    QTest::newRow("a pod name") << u"checkout-service-7d9f8b6c5d-x2k4j"_s << 4;
    QTest::newRow("longer than the packed words") << u"team-platform-infrastructure/checkout-service-7d9f8b6c5d-x2k4j"_s << 4;
    QTest::newRow("U+00FE in the first word") << u"ab\u00fecdefghijklmnop"_s << 1;
    QTest::newRow("CJK in the second word") << u"namespace/pod-\u65e5\u672c-1234567"_s << 2;
    QTest::newRow("U+00FE first in the second word") << u"abcdefgh\u00feijk"_s << 2;
}

// packText() gives textPrefix() of each word, 8 characters apart, until the packing stops; the
// words after that are 0. The sort reads them in place of the texts.
void TestResourceTableModel::packTextIsTextPrefixWordByWord()
{
    QFETCH(QString, text);
    QFETCH(int, exactWords);

    const ResourceTableModel::PackedText packed = ResourceTableModel::packText(text);
    for (int word = 0; word < ResourceTableModel::PackedWords; ++word) {
        const quint64 expected = word < exactWords ? ResourceTableModel::textPrefix(text, 8 * word) : 0;
        QCOMPARE(packed[size_t(word)], expected);
    }
    // Two texts that differ after the packed characters: the packed words tie; one that differs
    // inside them: the words order as the texts.
    const QString longer = text + QString(40, u'z');
    const QString lower = text + QString(40, u'a');
    QCOMPARE(ResourceTableModel::packText(lower) < ResourceTableModel::packText(longer),
             exactWords == ResourceTableModel::PackedWords && text.size() < ResourceTableModel::PackedWords * 8);
}

void TestResourceTableModel::orderedBitsOrderAsTheNumbers_data()
{
    QTest::addColumn<double>("left");
    QTest::addColumn<double>("right");

    QTest::newRow("small integers") << 1.0 << 2.0;
    QTest::newRow("negative before zero") << -1.0 << 0.0;
    QTest::newRow("larger magnitude first among negatives") << -2.5 << -1.0;
    QTest::newRow("fractions") << 0.25 << 0.5;
    QTest::newRow("negative zero equals zero") << -0.0 << 0.0;
    QTest::newRow("negated times: younger first") << -1.7e12 << -1.6e12;
    QTest::newRow("extremes") << std::numeric_limits<double>::lowest() << std::numeric_limits<double>::max();
}

void TestResourceTableModel::orderedBitsOrderAsTheNumbers()
{
    QFETCH(double, left);
    QFETCH(double, right);

    const quint64 a = ResourceTableModel::orderedBits(left);
    const quint64 b = ResourceTableModel::orderedBits(right);
    QCOMPARE(a < b, left < right);
    QCOMPARE(a == b, left == right);
    QCOMPARE(b < a, right < left);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestResourceTableModel)
#include "tst_resourcetablemodel.moc"
