# The proxy and eviction calls as a user of the Python client makes them: a GET through
# services/proxy with a path, and an eviction of a pod its PodDisruptionBudget refuses (an
# ApiException carrying the 429 and Kubernetes' message). Prints one JSON line.
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
service, pod = sys.argv[2], sys.argv[3]
proxied = core.connect_get_namespaced_service_proxy_with_path(service, "default", "from-python")
refused = None
try:
    core.create_namespaced_pod_eviction(pod, "default", client.V1Eviction(metadata=client.V1ObjectMeta(name=pod, namespace="default")))
except ApiException as e:
    refused = [e.status, json.loads(e.body)["message"]]
print(json.dumps({"proxied": proxied, "refused": refused}))
