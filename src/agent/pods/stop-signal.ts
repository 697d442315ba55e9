// A container's lifecycle.stopSignal (Kubernetes 1.33+, ContainerStopSignals) in the CRI's enum
// and back: SIGUSR1 is SIGNAL_SIGUSR1, SIGRTMIN+1 is SIGNAL_SIGRTMINPLUS1, SIGRTMAX-1 is
// SIGNAL_SIGRTMAXMINUS1. The runtime sends it in place of its default on StopContainer, and
// reports it in ContainerStatus, which the pod status passes on (a runtime that does not know
// the field, such as containerd 1.6, reports the default and nothing is shown).

import type { CriSignal } from '../cri/generated/cri-types.ts';

export function criStopSignal(name: string | undefined): CriSignal | undefined {
  if (!name) return undefined;
  return `SIGNAL_${name.replace('+', 'PLUS').replace('-', 'MINUS')}` as CriSignal;
}

export function podStopSignal(signal: string | undefined): string | undefined {
  if (!signal || signal === 'SIGNAL_RUNTIME_DEFAULT' || !signal.startsWith('SIGNAL_')) return undefined;
  return signal.slice('SIGNAL_'.length).replace(/^(SIGRTMIN)PLUS/, '$1+').replace(/^(SIGRTMAX)MINUS/, '$1-');
}
