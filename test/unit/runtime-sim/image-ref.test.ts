import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeImageRef } from '../../../src/runtime-sim/image-ref.ts';

test('image names are normalised as containerd reads them', () => {
  const cases: Array<[string, string | undefined]> = [
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['library/busybox', 'docker.io/library/busybox:latest'],
    ['team/app:v1', 'docker.io/team/app:v1'],
    ['docker.io/busybox', 'docker.io/library/busybox:latest'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost/app', 'localhost/app:latest'],
    ['localhost:5000/a/b/c:tag', 'localhost:5000/a/b/c:tag'],
    [`busybox@sha256:${'a'.repeat(64)}`, `docker.io/library/busybox@sha256:${'a'.repeat(64)}`],
    [`busybox:1.36@sha256:${'b'.repeat(64)}`, `docker.io/library/busybox:1.36@sha256:${'b'.repeat(64)}`],
    ['BusyBox', undefined],
    ['busy box', undefined],
    ['busybox@sha256:short', undefined],
    ['', undefined],
  ];
  for (const [input, want] of cases) assert.equal(normalizeImageRef(input), want, input);
});
