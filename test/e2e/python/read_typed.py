# Reads objects through the Python client's typed API, whose generated models refuse a response
# that lacks a required field, and watches from a list's resourceVersion. Prints one JSON line.
import json
import sys
import threading

from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
apps = client.AppsV1Api()
ns = "default"
labels = {"app": "py"}
template = {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}

core.create_namespaced_replication_controller(ns, {"metadata": {"name": "rc"}, "spec": {"replicas": 0, "selector": labels, "template": template}})
apps.create_namespaced_daemon_set(ns, {"metadata": {"name": "ds"}, "spec": {"selector": {"matchLabels": labels}, "template": template}})
apps.create_namespaced_deployment(ns, {"metadata": {"name": "dep"}, "spec": {"replicas": 0, "selector": {"matchLabels": labels}, "template": template}})
core.create_node({"metadata": {"name": "py-node"}, "status": {"nodeInfo": {"machineID": "m"}}})
core.create_namespaced_service(ns, {"metadata": {"name": "svc"}, "spec": {"selector": labels, "ports": [{"port": 80}]}})
core.create_namespaced_event(ns, {"metadata": {"name": "ev"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": ns}, "reason": "R", "message": "m"})

read = {
    "rc": core.read_namespaced_replication_controller("rc", ns).status.replicas,
    "ds": apps.read_namespaced_daemon_set("ds", ns).status.desired_number_scheduled,
    "dep": apps.read_namespaced_deployment("dep", ns).spec.replicas,
    "node": core.read_node("py-node").status.node_info.kube_proxy_version,
    # struct values Go writes although empty, strings without omitempty
    "svc": core.read_namespaced_service("svc", ns).status.load_balancer.to_dict(),
    "event": [core.read_namespaced_event("ev", ns).reporting_component, core.read_namespaced_event("ev", ns).event_time],
    "lists": [len(core.list_namespaced_replication_controller(ns).items), len(apps.list_namespaced_daemon_set(ns).items), len(core.list_node().items)],
}

start = core.list_namespaced_config_map(ns).metadata.resource_version
names = ["w%d" % i for i in range(5)]
for n in names:
    core.create_namespaced_config_map(ns, {"metadata": {"name": n}, "data": {"k": n}})
core.delete_namespaced_config_map("w0", ns)

seen = []
w = watch.Watch()
timer = threading.Timer(10, w.stop)
timer.start()
for ev in w.stream(core.list_namespaced_config_map, ns, resource_version=start, timeout_seconds=10):
    seen.append([ev["type"], ev["object"].metadata.name])
    if len(seen) == len(names) + 1:
        w.stop()
timer.cancel()
print(json.dumps({"read": read, "events": seen}))
