# Creates a Deployment and waits for it to become available, as a user of the Python client
# writes it: a watch on the one Deployment until its Available condition is True and every
# replica is updated and available for the current generation. Prints one JSON line.
import json
import sys
import time

from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
apps = client.AppsV1Api()
name, ns, replicas = "py-web", "default", 3
labels = {"app": name}
apps.create_namespaced_deployment(ns, client.V1Deployment(
    metadata=client.V1ObjectMeta(name=name),
    spec=client.V1DeploymentSpec(
        replicas=replicas,
        selector=client.V1LabelSelector(match_labels=labels),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels=labels),
            spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="registry.local/app:1.0")]),
        ),
    ),
))
started = time.time()
w = watch.Watch()
done = None
for event in w.stream(apps.list_namespaced_deployment, ns, field_selector=f"metadata.name={name}", timeout_seconds=60):
    d = event["object"]
    available = [c for c in (d.status.conditions or []) if c.type == "Available"]
    if (d.status.observed_generation or 0) >= d.metadata.generation and d.status.updated_replicas == replicas \
            and d.status.available_replicas == replicas and available and available[0].status == "True":
        done = {"available": d.status.available_replicas, "reason": available[0].reason, "seconds": round(time.time() - started, 1)}
        w.stop()
print(json.dumps(done))
