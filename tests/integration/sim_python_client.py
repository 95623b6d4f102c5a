#!/usr/bin/python3
"""Drives Debian's python3-kubernetes client against cachescope-sim.

Usage: sim_python_client.py SCENARIO   (KUBECONFIG names the simulator's kubeconfig)
Prints what it checked and exits 0 when every check of the scenario holds, 1 otherwise.
"""
import os
import sys

from kubernetes import client, config, watch
from kubernetes.client.exceptions import ApiException


def check(condition, what):
    if not condition:
        print("FAILED:", what)
        sys.exit(1)
    print("ok:", what)


def core(context=None):
    api_client = config.new_client_from_config(config_file=os.environ["KUBECONFIG"], context=context)
    return client.CoreV1Api(api_client), client.AppsV1Api(api_client)


def scenario_list():
    v1, apps = core()
    pods = v1.list_pod_for_all_namespaces()
    check(len(pods.items) == int(os.environ.get("SIM_PODS", "0")), "list_pod_for_all_namespaces returns every pod")
    check(all(p.metadata.owner_references[0].kind == "ReplicaSet" for p in pods.items), "pods are owned by replicasets")
    check(all(p.spec.node_name for p in pods.items), "pods are scheduled on nodes")
    deployments = apps.list_deployment_for_all_namespaces()
    check(len(deployments.items) > 0, "list_deployment_for_all_namespaces")
    rs = apps.list_replica_set_for_all_namespaces()
    check(rs.items[0].metadata.owner_references[0].kind == "Deployment", "replicasets are owned by deployments")
    nodes = v1.list_node()
    check(len(nodes.items) == 3, "list_node")
    some = pods.items[0]
    selected = v1.list_namespaced_pod(some.metadata.namespace, label_selector="app in (%s)" % some.metadata.labels["app"])
    check(len(selected.items) >= 1 and all(p.metadata.labels["app"] == some.metadata.labels["app"] for p in selected.items),
          "label selector with set-based requirement")
    by_node = v1.list_pod_for_all_namespaces(field_selector="spec.nodeName=%s" % some.spec.node_name)
    check(all(p.spec.node_name == some.spec.node_name for p in by_node.items), "field selector on spec.nodeName")
    v1.list_namespaced_config_map("default")
    v1.list_namespaced_secret(some.metadata.namespace)
    v1.list_namespaced_service(some.metadata.namespace)
    v1.list_event_for_all_namespaces()


def scenario_paginate():
    v1, _ = core()
    everything = {p.metadata.name for p in v1.list_pod_for_all_namespaces().items}
    seen, token, pages = [], None, 0
    while True:
        page = v1.list_pod_for_all_namespaces(limit=4, _continue=token)
        seen += [p.metadata.name for p in page.items]
        pages += 1
        token = page.metadata._continue
        if pages == 1:
            check(page.metadata.remaining_item_count == len(everything) - 4, "remainingItemCount on the first page")
        if not token:
            break
    check(sorted(seen) == sorted(everything), "pages add up to the whole list")
    check(pages == (len(everything) + 3) // 4, "page count")


def scenario_watch_bookmarks_resume():
    v1, _ = core()
    listed = v1.list_namespaced_config_map("default")
    rv = listed.metadata.resource_version
    body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-watch"), data={"a": "1"})
    v1.create_namespaced_config_map("default", body)
    w = watch.Watch()
    types, bookmarks = [], 0
    for event in w.stream(v1.list_namespaced_config_map, "default", resource_version=rv, allow_watch_bookmarks=True, timeout_seconds=3):
        if event["type"] == "BOOKMARK":
            bookmarks += 1
        else:
            types.append((event["type"], event["object"].metadata.name))
        if bookmarks >= 1 and types:
            w.stop()
    check(types[0] == ("ADDED", "py-watch"), "resumed watch replays the creation made after the list")
    check(bookmarks >= 1, "bookmarks arrive with allow_watch_bookmarks")
    check(int(w.resource_version) >= int(rv), "the watch tracks the latest resourceVersion")
    # Resume from where the first watch stopped: only what happened since.
    resume_from = w.resource_version
    v1.patch_namespaced_config_map("py-watch", "default", {"data": {"a": "2"}})
    v1.delete_namespaced_config_map("py-watch", "default")
    seen = []
    w2 = watch.Watch()
    for event in w2.stream(v1.list_namespaced_config_map, "default", resource_version=resume_from, timeout_seconds=3):
        seen.append(event["type"])
        if len(seen) == 2:
            w2.stop()
    check(seen == ["MODIFIED", "DELETED"], "second watch resumes after the first one's version")


def scenario_too_old():
    v1, _ = core()
    try:
        for _ in watch.Watch().stream(v1.list_namespaced_pod, "default", resource_version="1", timeout_seconds=3):
            pass
    except ApiException as error:
        check(error.status == 410, "a watch from a too old resourceVersion gets 410")
        return
    check(False, "a watch from a too old resourceVersion raises")


def scenario_cert_user():
    v1, _ = core(context="sim-cert")
    check(len(v1.list_namespace().items) >= 3, "client-certificate user lists namespaces")


def scenario_write():
    v1, apps = core()
    pod = client.V1Pod(metadata=client.V1ObjectMeta(name="py-pod", labels={"app": "py"}),
                       spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")]))
    created = v1.create_namespaced_pod("default", pod)
    check(created.metadata.uid and created.metadata.creation_timestamp, "create fills uid and creationTimestamp")
    patched = v1.patch_namespaced_pod("py-pod", "default", {"metadata": {"labels": {"extra": "x"}}})
    check(patched.metadata.labels == {"app": "py", "extra": "x"}, "strategic merge patch adds a label")
    stale = created
    stale.metadata.labels = {"app": "stale"}
    try:
        v1.replace_namespaced_pod("py-pod", "default", stale)
        check(False, "replace with a stale resourceVersion fails")
    except ApiException as error:
        check(error.status == 409, "replace with a stale resourceVersion gets 409")
    v1.delete_namespaced_pod("py-pod", "default")
    try:
        v1.read_namespaced_pod("py-pod", "default")
        check(False, "deleted pod is gone")
    except ApiException as error:
        check(error.status == 404, "deleted pod reads as 404")


if __name__ == "__main__":
    globals()["scenario_" + sys.argv[1].replace("-", "_")]()
    print("done")
