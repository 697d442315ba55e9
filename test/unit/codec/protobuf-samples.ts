// A Pod touching most of the protobuf codec's special cases; shared by tests and benchmarks.

export function samplePod(): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: 'web-7d4b9c-x2x9q', generateName: 'web-7d4b9c-', namespace: 'default', uid: '6a1c3c1e-7f8e-4b1a-9c51-0c7f7e1d2a3b', resourceVersion: '1234', generation: 1,
      creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'web', 'pod-template-hash': '7d4b9c' }, annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-01-01T00:00:00Z' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c', uid: '11111111-2222-3333-4444-555555555555', controller: true, blockOwnerDeletion: true }],
      finalizers: ['example.com/keep'],
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } } }],
    },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'web-config', defaultMode: 420, items: [{ key: 'a', path: 'a.txt' }] } },
        { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
      ],
      initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'] }],
      containers: [{
        name: 'web', image: 'nginx:1.27', args: ['--port', '8080'], workingDir: '/srv',
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'MODE', value: 'prod' }, { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'web-config', key: 'mode', optional: true } } }],
        resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
        volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }],
        livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 3, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
        readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5 },
        lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent',
        securityContext: { runAsNonRoot: true, runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: 'node-1',
      securityContext: { fsGroup: 2000 }, schedulerName: 'default-scheduler', priority: 0, enableServiceLinks: true,
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] } },
    },
    status: {
      phase: 'Running', hostIP: '10.0.0.1', podIP: '10.244.0.5', podIPs: [{ ip: '10.244.0.5' }], startTime: '2024-01-01T00:00:01Z', qosClass: 'Burstable',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: '2024-01-01T00:00:05Z', lastTransitionTime: '2024-01-01T00:00:05Z' }],
      containerStatuses: [{
        name: 'web', ready: true, restartCount: 0, image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:abc', containerID: 'containerd://abc', started: true,
        state: { running: { startedAt: '2024-01-01T00:00:02Z' } }, lastState: {},
      }],
    },
  };
}
