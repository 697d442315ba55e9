// Whether a container has a log, from the status the agent reports, in the kubelet's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containerLogProblem, logContainerId } from '../../../../src/agent/pods/log-status.ts';
import type { PodStatus } from '../../../../src/agent/pods/types.ts';

const withState = (state: object, lastState: object = {}, list: 'containerStatuses' | 'initContainerStatuses' | 'ephemeralContainerStatuses' = 'containerStatuses'): PodStatus =>
  ({ [list]: [{ name: 'c', image: 'busybox', imageID: '', restartCount: 0, ready: false, state, lastState }] }) as PodStatus;
const problem = (s: PodStatus | undefined, previous = false) => containerLogProblem(s, 'c', 'p', previous);
const ran = { terminated: { exitCode: 1, containerID: 'containerd://1' } };

test('a running, finished or restarting container has a log; previous needs a terminated last state', () => {
  assert.equal(problem(withState({ running: { startedAt: 'x' } })), undefined);
  assert.equal(problem(withState(ran)), undefined);
  assert.equal(problem(withState({ waiting: { reason: 'CrashLoopBackOff' } }, ran)), undefined, 'the last instance\'s log');
  assert.equal(problem(withState({ running: { startedAt: 'x' } }, ran), true), undefined);
  assert.equal(problem(withState({ running: { startedAt: 'x' } }), true), 'previous terminated container "c" in pod "p" not found');
  assert.equal(problem(withState({ running: {} }, {}, 'ephemeralContainerStatuses')), undefined, 'ephemeral containers too');
  assert.equal(problem(withState({ running: {} }, {}, 'initContainerStatuses')), undefined);
});

test('a container that never ran says why, as the kubelet does', () => {
  assert.equal(problem({}), 'container "c" in pod "p" is not available');
  assert.equal(problem(withState({ waiting: { reason: 'ErrImagePull' } })), 'container "c" in pod "p" is waiting to start: image can\'t be pulled');
  assert.equal(problem(withState({ waiting: { reason: 'ImagePullBackOff' } })), 'container "c" in pod "p" is waiting to start: trying and failing to pull image');
  assert.equal(problem(withState({ waiting: { reason: 'PodInitializing' } })), 'container "c" in pod "p" is waiting to start: PodInitializing');
  assert.equal(problem(withState({ terminated: { exitCode: 128, reason: 'StartError' } })), 'container "c" in pod "p" is terminated');
  assert.equal(problem(withState({})), 'container "c" in pod "p" is waiting to start - no logs yet');
});

test('the log shown is of the instance the status names: a crash-looping container\'s last run, previous its last terminated one', () => {
  const id = (s: PodStatus, previous = false) => logContainerId(s, 'c', previous);
  assert.equal(id(withState({ waiting: { reason: 'CrashLoopBackOff' } }, ran)), '1', 'waiting to restart: the last run');
  assert.equal(id(withState({ waiting: { reason: 'CrashLoopBackOff' } }, ran), true), '1');
  const running = { ...withState({ running: { startedAt: 'x' } }, ran) };
  running.containerStatuses![0]!.containerID = 'containerd://2';
  assert.equal(id(running), '2');
  assert.equal(id(running, true), '1');
  assert.equal(id(withState({ terminated: { exitCode: 0, containerID: 'containerd://3' } }, ran)), '3');
  assert.equal(id(withState({ waiting: { reason: 'ContainerCreating' } })), undefined);
});
