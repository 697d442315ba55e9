# exec and port-forward as the Python client's users call them (kubernetes.stream): prints one
# JSON line with what came back. Arguments: kubeconfig, pod, forwarded port.
import json
import sys

from kubernetes import client, config
from kubernetes.stream import portforward, stream

config.load_kube_config(sys.argv[1])
api = client.CoreV1Api()
pod, port = sys.argv[2], int(sys.argv[3])

plain = stream(api.connect_get_namespaced_pod_exec, pod, 'default', command=['echo', 'py-exec'],
               stderr=True, stdin=False, stdout=True, tty=False)

resp = stream(api.connect_get_namespaced_pod_exec, pod, 'default', command=['sh', '-c', 'echo out; echo err >&2; exit 2'],
              stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)
resp.run_forever(timeout=20)
exec_result = {'stdout': resp.read_stdout(), 'stderr': resp.read_stderr(), 'code': resp.returncode}
resp.close()

pf = portforward(api.connect_get_namespaced_pod_portforward, pod, 'default', ports=str(port))
sock = pf.socket(port)
sock.setblocking(True)
sock.sendall(b'GET / HTTP/1.0\r\nHost: pod\r\n\r\n')
data = b''
while True:
    chunk = sock.recv(65536)
    if not chunk:
        break
    data += chunk
sock.close()
print(json.dumps({'plain': plain, 'exec': exec_result, 'http': data.decode('utf-8', 'replace'), 'pfError': pf.error(port)}))
