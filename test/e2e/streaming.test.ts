// exec, attach, port-forward and cp end to end, on each runtime (containerd with the busybox
// image, and `orch runtime-sim`): real kubectl 1.33 and 1.27, @kubernetes/client-node and the Python
// client through `orch server` and a real `orch agent`. One cluster per runtime for every case.
// kubectl 1.33 speaks WebSocket v5 (exec, attach, cp) and SPDY tunnelled in WebSocket
// (port-forward); kubectl 1.27 speaks SPDY/3.1; the client libraries the channel protocols.
// Both kubectl versions: exec (-i, -it under script(1)), attach, cp of 10 MB both ways,
// port-forward to two ports of the pod with concurrent connections and a clean SIGINT exit, and
// `kubectl debug -it` (an ephemeral container with stdin and a terminal, driven through attach).

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import net, { type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { dialCommand, UpgradeRefused } from '../../src/streaming/websocket/command-client.ts';
import { Attach, Exec, KubeConfig, PortForward } from '@kubernetes/client-node';
import { requires } from '../support/requires.ts';
import { kubectl } from './support/kubectl.ts';
import { image, runtimeKinds, startPodCluster, type PodCluster } from './support/pod-runtimes.ts';
import { until } from './support/until.ts';

const kubectl133 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const kubectl127 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const python = '/usr/bin/python3';
const run = promisify(execFile);

async function createPod(k: PodCluster, name: string, containers: Array<Record<string, unknown>>, annotations?: Record<string, string>, restartPolicy = 'Always'): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations }, spec: { nodeName: k.node, restartPolicy, containers: containers.map(c => ({ image, imagePullPolicy: 'IfNotPresent', ...c })) } };
  const r = await k.c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, r.body);
}

const running = (k: PodCluster, name: string) => until(`${name} Running`, async () => {
  const p = (await k.c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json();
  return p?.status?.containerStatuses?.every((s: any) => s.state?.running) && p;
});

const forever = ['sh', '-c', 'while true; do sleep 1; done'];
const httpPort = 8080;
const page = 'hello through port-forward';
const otherPort = 8081;
const otherPage = 'the second listener';
// two listeners: a daemonised httpd on otherPort, the main process on httpPort
const web = ['sh', '-c', `mkdir -p /www /www2 && echo ${page} > /www/index.html && echo ${otherPage} > /www2/index.html && httpd -p ${otherPort} -h /www2 && httpd -f -p ${httpPort} -h /www`];

/**
 * a GET over a connected socket, answered as HTTP/1.0 (the server closes when done); `halfClose`
 * ends the client's side after the request, which containerd needs to end a forwarded connection
 * at once (otherwise it waits a second for the client's side once the pod's has closed)
 */
function httpGet(socket: net.Socket | import('node:stream').Duplex, halfClose = false): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    socket.on('data', (d: Buffer) => { data += d.toString(); });
    socket.once('end', () => resolve(data));
    socket.once('error', reject);
    socket.write('GET / HTTP/1.0\r\nHost: pod\r\n\r\n');
    if (halfClose) socket.end();
  });
}

// the two runtimes' clusters side by side: each has its own server, node and pod subnet
suite('streaming on each runtime', { concurrency: true }, () => {
  for (const kind of runtimeKinds) {
    test(`streaming on ${kind.name}`, { ...requires(kind.missing()), timeout: 180_000 }, async t => {
      const k = await startPodCluster(kind, t);
      await createPod(k, 'shell', [{ name: 'main', command: forever }]);
      await createPod(k, 'web', [{ name: 'httpd', command: web }]);
      await createPod(k, 'talker', [{ name: 'main', command: ['sh', '-c', 'while true; do echo tick; sleep 0.2; done'] }]);
      await createPod(k, 'two', [{ name: 'a', command: forever }, { name: 'b', command: forever }], { 'kubectl.kubernetes.io/default-container': 'b' });
      await createPod(k, 'done', [{ name: 'main', command: ['true'] }], undefined, 'Never');
      await Promise.all(['shell', 'web', 'talker', 'two'].map(n => running(k, n)));
      const kc = (args: string[], input?: string) => kubectl(kubectl133, k.orch.kubeconfig, args, input);
      const dir = await mkdtemp(join(tmpdir(), 'orch-streaming-'));
      t.after(() => rm(dir, { recursive: true, force: true }));

      await t.test('kubectl exec: output and exit codes', async () => {
        const r = await kc(['exec', 'shell', '--', 'echo', 'hello from the pod']);
        assert.equal(r.stdout, 'hello from the pod\n', r.stderr);
        assert.equal(r.code, 0);
        const failed = await kc(['exec', 'shell', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
        assert.equal(failed.code, 3, failed.stderr);
        assert.equal(failed.stdout, 'out\n');
        assert.equal(failed.stderr, 'err\ncommand terminated with exit code 3\n');
      });

      await t.test('kubectl exec -i: input reaches the command', async () => {
        const r = await kc(['exec', '-i', 'shell', '--', 'head', '-c', '11'], 'hello world and more');
        assert.equal(r.stdout, 'hello world', r.stderr);
        assert.equal(r.code, 0);
      });

      await t.test("kubectl exec -i: the end of input ends the command's input", async () => {
        const r = await kc(['exec', '-i', 'shell', '--', 'cat'], 'line one\nline two\n');
        assert.equal(r.stdout, 'line one\nline two\n', r.stderr);
        assert.equal(r.code, 0);
      });

      for (const bin of [kubectl133, kubectl127]) await t.test(`kubectl ${bin.slice(-4)} exec -it under a pseudo-terminal: an interactive shell`, async () => {
        // script(1) gives kubectl a terminal; its input is what is "typed"
        // its terminal is 45 rows by 123 columns, which kubectl sends on the resize channel
        const child = spawn('script', ['-qec', `stty cols 123 rows 45; ${bin} --kubeconfig ${k.orch.kubeconfig} exec -it shell -- sh`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        const exited = new Promise<number>(r => child.once('exit', code => r(code ?? -1)));
        try {
          await until('a prompt', async () => out.includes('# '), 20_000);
          // the terminal echoes the line as typed; only the shell expands $HOSTNAME
          child.stdin.write('echo typed-on-$HOSTNAME\n');
          await until('the command ran', async () => out.includes('typed-on-shell'), 20_000);
          child.stdin.write('stty size\n');
          await until('the terminal size', async () => out.includes('45 123'), 20_000);
          child.stdin.write('exit 4\n');
          const code = await Promise.race([exited, new Promise<string>(r => setTimeout(() => r('still running'), 20_000).unref())]);
          assert.equal(code, 4, out);
        } finally {
          child.kill('SIGKILL');
        }
      });

      await t.test('the default container annotation is kubectl\'s; the server wants a name', async () => {
        const r = await kc(['exec', 'two', '--', 'sh', '-c', 'echo $HOSTNAME']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'two\n');
        const raw = await k.c.request('POST', '/api/v1/namespaces/default/pods/two/exec?command=true&stdout=true');
        assert.equal(raw.status, 400);
        assert.equal(raw.json().message, 'a container name must be specified for pod two, choose one of: [a b]');
        const bad = await k.c.request('POST', '/api/v1/namespaces/default/pods/two/exec?command=true&stdout=true&container=c');
        assert.equal(bad.json().message, 'container c is not valid for pod two');
        const plain = await k.c.request('POST', '/api/v1/namespaces/default/pods/two/exec?command=true&stdout=true&container=a');
        assert.equal(plain.status, 400);
        assert.equal(plain.json().message, 'Upgrade request required');
        // discovery shows them as kube-apiserver does
        const listed = (await k.c.request('GET', '/api/v1')).json().resources.filter((x: any) => /^pods\/(exec|attach|portforward)$/.test(x.name));
        assert.deepEqual(listed.map((x: any) => [x.name, x.kind, x.verbs]), [
          ['pods/attach', 'PodAttachOptions', ['create', 'get']], ['pods/exec', 'PodExecOptions', ['create', 'get']], ['pods/portforward', 'PodPortForwardOptions', ['create', 'get']],
        ]);
      });

      await t.test("the agent's refusals reach the client as the kubelet words them", async () => {
        await until('done Succeeded', async () => (await k.c.request('GET', '/api/v1/namespaces/default/pods/done')).json()?.status?.phase === 'Succeeded');
        const kconf = parse(await readFile(k.orch.kubeconfig, 'utf8'));
        const b = (s: string) => Buffer.from(s, 'base64').toString();
        const tls = { ca: b(kconf.clusters[0].cluster['certificate-authority-data']), cert: b(kconf.users[0].user['client-certificate-data']), key: b(kconf.users[0].user['client-key-data']) };
        const server = kconf.clusters[0].cluster.server;
        const refused = (path: string) => dialCommand(`${server}${path}`, { tls }).then(() => assert.fail('upgraded'), (e: unknown) => e as UpgradeRefused);
        const gone = await refused('/api/v1/namespaces/default/pods/done/exec?command=true&stdout=true');
        assert.deepEqual([gone.code, gone.body], [500, 'container not found ("main")']);
        const noStreams = await refused('/api/v1/namespaces/default/pods/shell/exec?command=true');
        assert.deepEqual([noStreams.code, noStreams.body], [400, 'you must specify at least 1 of stdin, stdout, stderr']);
        const r = await kc(['exec', 'done', '--', 'true']);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /cannot exec into a container in a completed pod; current phase is Succeeded|container not found \("main"\)/);
      });

      for (const bin of [kubectl133, kubectl127]) await t.test(`kubectl ${bin.slice(-4)} attach follows the main process`, async () => {
        const child = spawn(bin, ['--kubeconfig', k.orch.kubeconfig, 'attach', 'talker'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          // output from after the attach (none is replayed); the newest kubectl waits for a second line
          const ticks = bin === kubectl133 ? 2 : 1;
          await until(`${ticks} ticks`, async () => (out.match(/tick/g) ?? []).length >= ticks, 20_000);
        } finally {
          child.kill();
        }
      });

      await t.test('kubectl cp from the pod: 10 MB, checksum kept', async () => {
        const made = await kc(['exec', 'shell', '--', 'sh', '-c', 'head -c 10485760 /dev/urandom > /tmp/big && sha256sum /tmp/big']);
        assert.equal(made.code, 0, made.stderr);
        const sum = made.stdout.split(' ')[0];
        const local = join(dir, 'from-pod');
        const r = await kc(['cp', 'shell:/tmp/big', local]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(createHash('sha256').update(await readFile(local)).digest('hex'), sum);
      }, );

      await t.test('kubectl cp into the pod: 10 MB, checksum kept', async () => {
        const data = Buffer.alloc(10 * 1024 * 1024);
        for (let i = 0; i < data.length; i += 4096) data.write(`${i}:`, i);
        const local = join(dir, 'to-pod');
        await writeFile(local, data);
        const r = await kc(['cp', local, 'shell:/tmp/uploaded']);
        assert.equal(r.code, 0, r.stderr);
        const sum = await kc(['exec', 'shell', '--', 'sha256sum', '/tmp/uploaded']);
        assert.equal(sum.stdout.split(' ')[0], createHash('sha256').update(data).digest('hex'), sum.stderr);
      });

      await t.test('kubectl port-forward and an HTTP GET through it', async () => {
        const child = spawn(kubectl133, ['--kubeconfig', k.orch.kubeconfig, 'port-forward', 'pod/web', `:${httpPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          const local = Number((await until('forwarding', async () => /127\.0\.0\.1:(\d+)/.exec(out) ?? undefined, 20_000))[1]);
          const answer = await httpGet(net.connect(local, '127.0.0.1'));
          assert.match(answer, new RegExp(page));
        } finally {
          child.kill();
        }
      });

      await t.test('kubectl 1.27 (SPDY): exec, exit codes, -i, port-forward', async () => {
        const r = await kubectl(kubectl127, k.orch.kubeconfig, ['exec', 'shell', '--', 'sh', '-c', 'echo old; exit 5']);
        assert.equal(r.stdout, 'old\n', r.stderr);
        assert.equal(r.code, 5);
        assert.match(r.stderr, /command terminated with exit code 5/);
        const input = await kubectl(kubectl127, k.orch.kubeconfig, ['exec', '-i', 'shell', '--', 'head', '-c', '5'], 'abcdefgh');
        assert.equal(input.stdout, 'abcde', input.stderr);
        const child = spawn(kubectl127, ['--kubeconfig', k.orch.kubeconfig, 'port-forward', 'pod/web', `:${httpPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          const local = Number((await until('forwarding', async () => /127\.0\.0\.1:(\d+)/.exec(out) ?? undefined, 20_000))[1]);
          assert.match(await httpGet(net.connect(local, '127.0.0.1')), new RegExp(page));
        } finally {
          child.kill();
        }
      });

      await t.test('kubectl 1.27 (SPDY): cp both ways of 10 MB, checksum kept', async () => {
        const k127 = (args: string[]) => kubectl(kubectl127, k.orch.kubeconfig, args);
        const made = await k127(['exec', 'shell', '--', 'sh', '-c', 'head -c 10485760 /dev/urandom > /tmp/big127 && sha256sum /tmp/big127']);
        assert.equal(made.code, 0, made.stderr);
        const local = join(dir, 'from-pod-127');
        const down = await k127(['cp', 'shell:/tmp/big127', local]);
        assert.equal(down.code, 0, down.stderr);
        assert.equal(createHash('sha256').update(await readFile(local)).digest('hex'), made.stdout.split(' ')[0]);
        const data = Buffer.alloc(10 * 1024 * 1024);
        for (let i = 0; i < data.length; i += 4096) data.write(`127:${i}:`, i);
        const upload = join(dir, 'to-pod-127');
        await writeFile(upload, data);
        const up = await k127(['cp', upload, 'shell:/tmp/uploaded127']);
        assert.equal(up.code, 0, up.stderr);
        const sum = await k127(['exec', 'shell', '--', 'sha256sum', '/tmp/uploaded127']);
        assert.equal(sum.stdout.split(' ')[0], createHash('sha256').update(data).digest('hex'), sum.stderr);
      });

      for (const bin of [kubectl133, kubectl127]) await t.test(`kubectl ${bin.slice(-4)} port-forward: two ports, concurrent connections, SIGINT closes cleanly`, async () => {
        const child = spawn(bin, ['--kubeconfig', k.orch.kubeconfig, 'port-forward', 'pod/web', `0:${httpPort}`, `0:${otherPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '', err = '';
        child.stdout.on('data', d => { out += d; });
        child.stderr.on('data', d => { err += d; });
        const exited = new Promise<number | string>(r => child.once('exit', (code, signal) => r(code ?? String(signal))));
        try {
          const [first, second] = await until('both ports forwarded', async () => {
            const a = new RegExp(`127\\.0\\.0\\.1:(\\d+) -> ${httpPort}`).exec(out), b = new RegExp(`127\\.0\\.0\\.1:(\\d+) -> ${otherPort}`).exec(out);
            return a && b ? [Number(a[1]), Number(b[1])] : undefined;
          }, 20_000);
          // six connections at once, three to each port of the pod, each answered by its own
          // listener; the client's half-close travels to the pod and the answer still comes back
          const ports = [first, second, first, second, first, second];
          const answers = await Promise.all(ports.map(p => httpGet(net.connect({ port: p!, host: '127.0.0.1', allowHalfOpen: true }), true)));
          answers.forEach((a, i) => assert.match(a, new RegExp(`^HTTP/1\\.[01] 200[\\s\\S]*${ports[i] === first ? page : otherPage}`), a));
          child.kill('SIGINT');
          const code = await Promise.race([exited, new Promise<string>(r => setTimeout(() => r('still running'), 10_000).unref())]);
          assert.equal(code, 0, `${out}${err}`);
          assert.doesNotMatch(err, /error|unable/i);
        } finally {
          child.kill('SIGKILL');
        }
        const pod = (await k.c.request('GET', '/api/v1/namespaces/default/pods/web')).json();
        assert.equal(pod.status.containerStatuses[0].restartCount, 0);
        assert.ok(pod.status.containerStatuses[0].state.running, 'the pod is unaffected');
      });

      for (const bin of [kubectl133, kubectl127]) await t.test(`kubectl ${bin.slice(-4)} debug -it: an interactive ephemeral container through attach`, async () => {
        const name = `dbgit-${bin.slice(-4).replace('.', '')}`;
        const profile = bin === kubectl133 ? '--profile=general' : '';
        const cmd = `${bin} --kubeconfig ${k.orch.kubeconfig} debug -it pod/shell -c ${name} --image=${image} --image-pull-policy=IfNotPresent --target=main ${profile} -- sh`;
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        const exited = new Promise<number>(r => child.once('exit', code => r(code ?? -1)));
        try {
          await until('attached', async () => out.includes("If you don't see a command prompt"), 30_000);
          // only the shell in the debug container expands $HOSTNAME (the pod's name)
          child.stdin.write('echo hi-from-$HOSTNAME\n');
          await until('the command ran', async () => out.includes('hi-from-shell'), 20_000);
          child.stdin.write('exit 0\n');
          const code = await Promise.race([exited, new Promise<string>(r => setTimeout(() => r('still running'), 20_000).unref())]);
          assert.equal(code, 0, out);
        } finally {
          child.kill('SIGKILL');
        }
        const pod = (await k.c.request('GET', '/api/v1/namespaces/default/pods/shell')).json();
        const spec = pod.spec.ephemeralContainers.find((x: any) => x.name === name);
        assert.deepEqual([spec.stdin, spec.tty, spec.targetContainerName], [true, true, 'main']);
        assert.ok(pod.status.ephemeralContainerStatuses.some((x: any) => x.name === name), JSON.stringify(pod.status));
      });

      await t.test('@kubernetes/client-node: Attach', async () => {
        const config = new KubeConfig();
        config.loadFromFile(k.orch.kubeconfig);
        let stdout = '';
        const ws = await new Attach(config).attach('default', 'talker', 'main', new Writable({ write(c, _e, cb) { stdout += c; cb(); } }), null, null, false);
        try {
          await until('a tick', async () => stdout.includes('tick\n'), 20_000);
        } finally {
          ws.close();
        }
      });

      await t.test('@kubernetes/client-node: Exec and PortForward', async () => {
        const config = new KubeConfig();
        config.loadFromFile(k.orch.kubeconfig);
        let stdout = '', stderr = '';
        const status = await new Promise<any>((resolve, reject) => {
          void new Exec(config).exec('default', 'shell', 'main', ['sh', '-c', 'echo from-node; echo oops >&2; exit 7'],
            new Writable({ write(c, _e, cb) { stdout += c; cb(); } }), new Writable({ write(c, _e, cb) { stderr += c; cb(); } }), null, false, resolve).catch(reject);
        });
        assert.equal(stdout, 'from-node\n');
        assert.equal(stderr, 'oops\n');
        assert.equal(status.status, 'Failure');
        assert.equal(status.details.causes.find((c: any) => c.reason === 'ExitCode').message, '7');

        // a local listener whose connections are forwarded, as client-node's users write it (the
        // socket closes with the forwarded connection)
        const forwarder = new PortForward(config);
        const server = net.createServer(socket => {
          void forwarder.portForward('default', 'web', [httpPort], socket, null, socket).then(ws => (ws as import('ws').WebSocket).once('close', () => socket.end()));
        });
        await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
        try {
          const answer = await httpGet(net.connect((server.address() as AddressInfo).port, '127.0.0.1'));
          assert.match(answer, /^HTTP\/1\.[01] 200/);
          assert.match(answer, new RegExp(page));
        } finally {
          server.close();
        }
      });

      await t.test('the Python client: stream() exec and portforward', { ...requires((await run(python, ['-c', 'import kubernetes']).then(() => undefined, () => `${python} with the kubernetes module (apt-get install python3-kubernetes)`))) }, async () => {
        const { stdout } = await run(python, [join(import.meta.dirname, 'python/streaming.py'), k.orch.kubeconfig, 'web', String(httpPort)], { timeout: 60_000 });
        const out = JSON.parse(stdout.trim().split('\n').pop()!);
        assert.equal(out.plain, 'py-exec\n');
        assert.deepEqual(out.exec, { stdout: 'out\n', stderr: 'err\n', code: 2 });
        assert.match(out.http, /^HTTP\/1\.[01] 200/);
        assert.match(out.http, new RegExp(page));
        assert.equal(out.pfError, null);
      });

    });
  }
});
