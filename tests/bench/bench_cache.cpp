// bench_cache: the cost of the informer cache core on pod-sized objects, on one core.
//
//   bench_cache [N]     (default 100000)
//
// Reports (1) decode throughput of KubeObject::fromJson with the default transform,
// (2) ingest throughput of decode + DeltaFifo add + pop into an Indexer with the namespace,
// node and owner indexes, as an informer does for watch events, (3) heap and resident memory
// per cached object against the size of its JSON, split into the stored JSON, each extracted
// field, the store and each index, and (4) what storing the JSON with qCompress would save and
// cost. Rates are per second of this thread's CPU time.
// Not a unit test: nothing is asserted; run it on an
// idle machine (numbers from a busy CI runner are noise).

#include "core/cache/deltafifo.h"
#include "core/cache/indexer.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/kubeobject.h"
#include "core/util/processmemory.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include <malloc.h>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// makePod() writes a pod the way the apiserver does (compact, managedFields first in metadata),
// about 3.5 KiB of which a third is managedFields, close to what `kubectl get pod -o json`
// shows for a Deployment's pod.
QByteArray makePod(int i)
{
    const QByteArray n = QByteArray::number(i);
    const QByteArray ns = "team-" + QByteArray::number(i % 50);
    const QByteArray node = "node-" + QByteArray::number(i % 200);
    const QByteArray rs = "web-" + QByteArray::number(i % 1000);
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-11-30T09:12:44Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0b7a1f44-8d2e-4e0f-b7a3-5c9e2d1f6a30\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:httpGet":{".":{},"f:path":{},"f:port":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-11-30T09:12:58Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.244.3.17\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},"subresource":"status"}],"name":"web-)" + n +
        R"(","generateName":"web-7d4b9c8f5d-","namespace":")" + ns + R"(","uid":"6f1c2a9e-3b1d-4c52-9a57-)" + n.rightJustified(12, '0') +
        R"(","resourceVersion":")" + QByteArray::number(100000 + i) +
        R"(","creationTimestamp":"2026-11-30T09:12:44Z","labels":{"app":"web","pod-template-hash":"7d4b9c8f5d","tier":"frontend"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:12:40Z"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":")" +
        rs + R"(","uid":"0b7a1f44-8d2e-4e0f-b7a3-)" + QByteArray::number(i % 1000).rightJustified(12, '0') +
        R"(","controller":true,"blockOwnerDeletion":true}]},"spec":{"nodeName":")" + node +
        R"(","restartPolicy":"Always","serviceAccountName":"default","dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","terminationGracePeriodSeconds":30,"containers":[{"name":"web","image":"registry.example/shop/web:1.14.2","imagePullPolicy":"IfNotPresent","ports":[{"containerPort":8080,"protocol":"TCP"}],"env":[{"name":"LOG_LEVEL","value":"info"}],"resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"memory":"512Mi"}},"readinessProbe":{"httpGet":{"path":"/healthz","port":8080},"periodSeconds":10},"args":["--listen=:8080","--config=/etc/web/config.yaml"],"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"name":"kube-api-access","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","readOnly":true}]}],"volumes":[{"name":"kube-api-access","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}}]}}],"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},"status":{"phase":"Running","podIP":"10.244.3.17","hostIP":"192.0.2.13","startTime":"2026-11-30T09:12:45Z","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T09:12:58Z"}],"containerStatuses":[{"name":"web","ready":true,"restartCount":2,"image":"registry.example/shop/web:1.14.2","state":{"running":{"startedAt":"2026-11-30T09:12:57Z"}}}]}})";
}

// cpuNanoseconds() is this thread's CPU time: "per core" figures that stay meaningful when the
// machine is shared (wall time on a loaded runner counts time spent waiting for a core).
qint64 cpuNanoseconds()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// listHeader() is where a list's heap block starts: Qt 6 puts its QArrayData header right
// before the elements (the elements here need no more than the header's alignment). Lists have
// no data_ptr() in Qt 6.4, strings do.
template<typename T>
const void *listHeader(const QList<T> &list)
{
    static_assert(alignof(T) <= alignof(QArrayData));
    return list.isEmpty() ? nullptr : reinterpret_cast<const char *>(list.constData()) - sizeof(QArrayData);
}

const void *stringHeader(const QString &text)
{
    return const_cast<QString &>(text).data_ptr().d_ptr();
}

const void *stringHeader(const QByteArray &bytes)
{
    return const_cast<QByteArray &>(bytes).data_ptr().d_ptr();
}

// allocationBytes() is the heap block that holds a string's or list's data, header included;
// zero for data that is not on the heap (static or empty).
qint64 blockBytes(const void *header)
{
    return header ? qint64(malloc_usable_size(const_cast<void *>(header))) : 0;
}

template<typename T>
qint64 allocationBytes(const QList<T> &list)
{
    return blockBytes(listHeader(list));
}

qint64 allocationBytes(const QString &text)
{
    return blockBytes(stringHeader(text));
}

qint64 allocationBytes(const QByteArray &bytes)
{
    return blockBytes(stringHeader(bytes));
}

// printFieldBreakdown() prints the heap blocks of one object's extracted fields, and whether
// another object with the same value shares them (interned: next to nothing per object). A field
// whose accessor returns new data on every call is not kept at all (it is read from the JSON).
void printFieldBreakdown(QTextStream &out, const QList<KubeObject> &objects)
{
    if (objects.size() < 2) {
        return;
    }
    const KubeObject &a = objects.at(0);
    // The first other object with the same owners: pods of one ReplicaSet.
    KubeObject sibling = objects.at(1);
    for (qsizetype i = 1; i < objects.size(); ++i) {
        if (objects.at(i).ownerReferences() == a.ownerReferences()) {
            sibling = objects.at(i);
            break;
        }
    }
    const auto line = [&out](const char *what, qint64 bytes, const char *note) {
        out << "    " << QString::fromLatin1(what).leftJustified(20) << QString::number(bytes).rightJustified(6) << " " << note << "\n";
    };
    const auto stringLine = [&](const char *what, auto field) {
        const QString mine = (a.*field)();
        if (stringHeader(mine) != stringHeader((a.*field)())) {
            line(what, 0, "(built on each call from the stored JSON)");
        } else {
            line(what, allocationBytes(mine), stringHeader(mine) == stringHeader((sibling.*field)()) ? "shared" : "");
        }
    };
    stringLine("name", &KubeObject::name);
    stringLine("uid", &KubeObject::uid);
    stringLine("resourceVersion", &KubeObject::resourceVersion);
    stringLine("namespace", &KubeObject::namespaceName);
    stringLine("nodeName", &KubeObject::nodeName);
    line("labels (list)", allocationBytes(a.labels()), listHeader(a.labels()) == listHeader(sibling.labels()) ? "shared" : "");
    const QList<KubeObject::OwnerReference> owners = a.ownerReferences();
    const bool ownersShared = listHeader(owners) == listHeader(sibling.ownerReferences());
    if (!owners.isEmpty()) {
        line("ownerRefs (list)",
             allocationBytes(owners) + allocationBytes(owners.at(0).name) + allocationBytes(owners.at(0).uid),
             ownersShared ? "shared (list, name, uid)" : "(list, name, uid)");
    }
}

Indexers informerIndexers()
{
    return {{namespaceIndexName(), namespaceIndexFunction()}, {nodeNameIndexName(), nodeNameIndexFunction()}, {ownerUidIndexName(), ownerUidIndexFunction()}};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const int count = arguments.size() > 1 ? arguments.at(1).toInt() : 100000;
    if (count <= 0) {
        std::fprintf(stderr, "usage: bench_cache [N]\n");
        return 2;
    }
    QTextStream out(stdout);

    // 1. Memory: build the cache from objects generated one at a time, so that nothing but the
    // cache itself stays resident. The heap is measured after each stage (decoded objects, the
    // store, each index) so that the per-object figure splits into its parts.
    qint64 inputBytes = 0;
    qint64 storedBytes = 0;
    qint64 jsonHeapBytes = 0;
    const qint64 rssBefore = residentBytes();
    {
        QList<KubeObject> objects;
        objects.reserve(count);
        const qint64 heapStart = heapInUseBytes();
        for (int i = 0; i < count; ++i) {
            const QByteArray json = makePod(i);
            const auto object = KubeObject::fromJson(json);
            if (!object) {
                std::fprintf(stderr, "decode failed\n");
                return 1;
            }
            inputBytes += json.size();
            storedBytes += object->jsonSize();
            jsonHeapBytes += object->storedSize();
            objects.append(*object);
        }
        const qint64 heapObjects = heapInUseBytes();
        Indexer indexer;
        for (const KubeObject &object : std::as_const(objects)) {
            indexer.add(object);
        }
        const qint64 heapStore = heapInUseBytes();
        QList<std::pair<QString, qint64>> indexHeap;
        const Indexers indexers = informerIndexers();
        for (auto it = indexers.cbegin(); it != indexers.cend(); ++it) {
            const qint64 before = heapInUseBytes();
            (void)indexer.addIndexers({{it.key(), it.value()}});
            indexHeap.append({it.key(), heapInUseBytes() - before});
        }
        const qint64 heapEnd = heapInUseBytes();
        const qint64 rssAfter = residentBytes();
        const auto perObject = [count](qint64 bytes) {
            return QString::number(double(bytes) / count, 'f', 0).rightJustified(6);
        };
        out << "objects:                 " << count << "\n";
        out << "JSON per object:         " << inputBytes / count << " bytes as received, " << storedBytes / count << " bytes stored (managedFields dropped)\n";
        out << "heap per object:         " << perObject(heapEnd - heapStart) << " bytes (malloc'd: objects + store + 3 indexes)\n";
        out << "  stored JSON (keys numbered) " << perObject(jsonHeapBytes) << " bytes of data\n";
        out << "  extracted fields       " << perObject(heapObjects - heapStart - jsonHeapBytes)
            << " (KubeObjectData, the stored JSON's block header, strings, labels, owners)\n";
        printFieldBreakdown(out, objects);
        out << "  store (hash + key)     " << perObject(heapStore - heapObjects) << "\n";
        for (const auto &[name, bytes] : std::as_const(indexHeap)) {
            out << "  index " << name.leftJustified(17) << perObject(bytes) << "\n";
        }
        out << "heap / stored JSON:      " << QString::number(double(heapEnd - heapStart) / double(storedBytes), 'f', 2) << "\n";
        out << "resident per object:     " << (rssAfter - rssBefore) / count << " bytes (VmRSS growth, store + 3 indexes)\n";
        out << "resident / stored JSON:  " << QString::number(double(rssAfter - rssBefore) / double(storedBytes), 'f', 2) << "\n";
        out.flush();
    }

    // Inputs for the timed runs are made up front so that generation is not measured.
    QList<QByteArray> inputs;
    inputs.reserve(count);
    qint64 totalBytes = 0;
    for (int i = 0; i < count; ++i) {
        inputs.append(makePod(i));
        totalBytes += inputs.last().size();
    }

    // What storing the JSON compressed would save and cost (qCompress is zlib in Qt Core): the
    // figures behind KubeObjectData's choice to keep the bytes as they are.
    {
        const int sample = std::min(count, 20000);
        QList<QByteArray> stored;
        stored.reserve(sample);
        for (int i = 0; i < sample; ++i) {
            stored.append(KubeObject::fromJson(inputs.at(i))->json());
        }
        for (const int level : {1, 6}) {
            QList<QByteArray> compressed;
            compressed.reserve(sample);
            qint64 plainBytes = 0;
            qint64 packedBytes = 0;
            const qint64 compressStart = cpuNanoseconds();
            for (const QByteArray &json : std::as_const(stored)) {
                compressed.append(qCompress(json, level));
                // qCompress() leaves zlib's worst-case bound as capacity; a cache would not keep it.
                compressed.last().squeeze();
                plainBytes += json.size();
                packedBytes += allocationBytes(compressed.last());
            }
            const qint64 compressNs = cpuNanoseconds() - compressStart;
            const qint64 uncompressStart = cpuNanoseconds();
            qint64 check = 0;
            for (const QByteArray &packed : std::as_const(compressed)) {
                check += qUncompress(packed).size();
            }
            const qint64 uncompressNs = cpuNanoseconds() - uncompressStart;
            out << "qCompress level " << level << ":       " << packedBytes / sample << " bytes per object (heap, of " << plainBytes / sample << "), compress "
                << QString::number(double(compressNs) / sample / 1000.0, 'f', 1) << " us, uncompress "
                << QString::number(double(uncompressNs) / sample / 1000.0, 'f', 1) << " us per object" << (check == plainBytes ? "" : " MISMATCH") << "\n";
        }
        out.flush();
    }

    // 2. Decode only.
    const qint64 decodeStart = cpuNanoseconds();
    qint64 checksum = 0;
    for (const QByteArray &json : std::as_const(inputs)) {
        const auto object = KubeObject::fromJson(json);
        checksum += object ? object->jsonSize() : 0;
    }
    qint64 ns = cpuNanoseconds() - decodeStart;
    out << "decode:                  " << qint64(double(count) * 1e9 / double(ns)) << " objects/s, "
        << QString::number(double(totalBytes) / 1e6 / (double(ns) / 1e9), 'f', 0) << " MB/s (checksum " << checksum << ")\n";
    out.flush();

    // 2b. json(): the stored form expanded back to its bytes, as printers and value() ask for it.
    {
        const int sample = std::min(count, 20000);
        QList<KubeObject> objects;
        objects.reserve(sample);
        for (int i = 0; i < sample; ++i) {
            objects.append(*KubeObject::fromJson(inputs.at(i)));
        }
        const qint64 expandStart = cpuNanoseconds();
        qint64 expanded = 0;
        for (const KubeObject &object : std::as_const(objects)) {
            expanded += object.json().size();
        }
        const qint64 expandNs = cpuNanoseconds() - expandStart;
        out << "json() (expand):         " << QString::number(double(expandNs) / sample / 1000.0, 'f', 2) << " us per object (" << expanded / sample
            << " bytes)\n";
        out.flush();
    }

    // 3. Decode + DeltaFifo + Indexer, as the informer's pipeline runs (the reflector and the
    // informer on one thread here, so the figures are per core): first the initial sync, where
    // every object is new to the cache, then a watch stream that updates each object once.
    Indexer indexer(informerIndexers());
    DeltaFifo fifo({metaNamespaceKey, &indexer, true});
    const auto ingest = [&](const QList<QByteArray> &events, bool update) {
        const qint64 start = cpuNanoseconds();
        for (const QByteArray &json : events) {
            const auto object = KubeObject::fromJson(json);
            if (!object) {
                continue;
            }
            if (update) {
                fifo.update(*object);
            } else {
                fifo.add(*object);
            }
            (void)fifo.pop([&](const Deltas &deltas, bool) {
                for (const Delta &delta : deltas) {
                    if (delta.type == DeltaType::Deleted) {
                        indexer.remove(delta.object);
                    } else {
                        indexer.update(delta.kubeObject());
                    }
                }
            });
        }
        return cpuNanoseconds() - start;
    };
    ns = ingest(inputs, false);
    out << "initial sync (decode+fifo+store): " << qint64(double(count) * 1e9 / double(ns)) << " objects/s, " << indexer.size() << " objects cached\n";
    out.flush();
    for (int i = 0; i < count; ++i) {
        inputs[i].replace("\"resourceVersion\":\"", "\"resourceVersion\":\"9");
    }
    ns = ingest(inputs, true);
    out << "watch updates (decode+fifo+store): " << qint64(double(count) * 1e9 / double(ns)) << " events/s\n";
    return 0;
}
