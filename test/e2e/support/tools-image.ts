// What the networking e2e tests run in pods on containerd: an image of busybox (sh, httpd, nc,
// nslookup, tftp) and a static kubectl, which in a pod reads the in-cluster configuration; and an
// HTTP GET from this host that reports errors by code rather than throwing.

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { ociArchive } from '../../../src/agent/containerd/oci-archive.ts';

export const toolsKubectl = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
export const toolsImageName = 'example.com/orch-test/kubectl-busybox:1';

const applets = ['sh', 'httpd', 'nc', 'nslookup', 'sleep', 'echo', 'cat', 'hostname', 'timeout'];

/** the image as an OCI archive, for `orch images import` */
export function toolsImage(): Buffer {
  return ociArchive({
    name: toolsImageName,
    architecture: process.arch === 'arm64' ? 'arm64' : 'amd64',
    cmd: ['sh'],
    env: ['PATH=/bin'],
    files: [
      ...['bin/', 'tmp/', 'etc/', 'proc/', 'sys/', 'dev/', 'www/'].map(path => ({ path })),
      { path: 'bin/busybox', data: readFileSync('/bin/busybox'), mode: 0o755 },
      ...applets.map(a => ({ path: `bin/${a}`, linkTo: 'busybox' })),
      { path: 'bin/kubectl', data: readFileSync(toolsKubectl), mode: 0o755 },
    ],
  });
}

/** an HTTP GET from this host: the body, or the error's code (ECONNREFUSED, ETIMEDOUT) */
export function fetchFromHost(host: string, port: number): Promise<string> {
  return new Promise(resolve => {
    // a connection of its own each time: a kept-alive one would stay with whoever answered first
    // (before the rules were there, this machine's egress proxy answers any port 80)
    const req = request({ host, port, path: '/', timeout: 3000, agent: false }, res => {
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve(body.trim()));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', err => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
    req.end();
  });
}
