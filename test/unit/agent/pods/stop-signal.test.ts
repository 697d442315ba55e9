import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criStopSignal, podStopSignal } from '../../../../src/agent/pods/stop-signal.ts';

test('stop signals between the pod spec and the CRI enum, both ways; the runtime default is not shown', () => {
  for (const [pod, cri] of [['SIGUSR1', 'SIGNAL_SIGUSR1'], ['SIGINT', 'SIGNAL_SIGINT'], ['SIGRTMIN+1', 'SIGNAL_SIGRTMINPLUS1'], ['SIGRTMAX-14', 'SIGNAL_SIGRTMAXMINUS14'], ['SIGRTMAX', 'SIGNAL_SIGRTMAX']]) {
    assert.equal(criStopSignal(pod), cri);
    assert.equal(podStopSignal(cri), pod);
  }
  assert.equal(criStopSignal(undefined), undefined);
  assert.equal(podStopSignal('SIGNAL_RUNTIME_DEFAULT'), undefined);
  assert.equal(podStopSignal(undefined), undefined);
});
