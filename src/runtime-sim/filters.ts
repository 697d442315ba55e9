// The filters of ListPodSandbox and ListContainers. An id (or pod sandbox id) that is a unique
// prefix is first made the full id, as containerd does; then every field given must match.

import type { SimContainer } from './container.ts';
import type { Sandbox } from './sandbox.ts';
import type { SimRuntime } from './runtime-state.ts';
import type { CriContainerFilter, CriPodSandboxFilter } from '../agent/cri/generated/cri-types.ts';

function labelsMatch(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  for (const [k, v] of Object.entries(selector ?? {})) if (labels?.[k] !== v) return false;
  return true;
}

export function sandboxFilter(rt: SimRuntime, filter: CriPodSandboxFilter | null | undefined): (sb: Sandbox) => boolean {
  if (!filter) return () => true;
  const id = filter.id ? rt.sandboxes.find(filter.id)?.id ?? filter.id : '';
  const state: string | undefined = filter.state?.state;
  return sb => (!id || sb.id === id) && (state === undefined || sb.state === state) && labelsMatch(filter.labelSelector, sb.config.labels);
}

export function containerFilter(rt: SimRuntime, filter: CriContainerFilter | null | undefined): (c: SimContainer) => boolean {
  if (!filter) return () => true;
  const id = filter.id ? rt.containers.find(filter.id)?.id ?? filter.id : '';
  const sandboxId = filter.podSandboxId ? rt.sandboxes.find(filter.podSandboxId)?.id ?? filter.podSandboxId : '';
  const state: string | undefined = filter.state?.state;
  return c => (!id || c.id === id)
    && (!sandboxId || c.spec.sandboxId === sandboxId)
    && (state === undefined || c.state === state)
    && labelsMatch(filter.labelSelector, c.spec.config.labels);
}
