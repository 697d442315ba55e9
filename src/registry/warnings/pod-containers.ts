// What kube-apiserver warns of in a pod's containers (init, regular and ephemeral, in that
// order, each with its own field path): annotations that stand in for a field, byte quantities
// with fractions, env vars hidden by a later one of the same name, and ports declared twice.

import type { CoreV1Container, CoreV1ContainerPort, CoreV1PodSpec } from '../../schema/generated/types.ts';
import { containerByteWarnings } from './fractional-bytes.ts';

const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const appArmorContainerPrefix = 'container.apparmor.security.beta.kubernetes.io/';

interface Visited { c: CoreV1Container; path: string }

function containersOf(spec: CoreV1PodSpec, specPath: string): Visited[] {
  const list = (items: CoreV1Container[] | null | undefined, field: string) => (items ?? []).map((c, i) => ({ c, path: `${specPath}.${field}[${i}]` }));
  return [...list(spec.initContainers, 'initContainers'), ...list(spec.containers, 'containers'), ...list(spec.ephemeralContainers as CoreV1Container[] | undefined, 'ephemeralContainers')];
}

/**
 * `template`: a pod template's annotations are checked for AppArmor here; a pod's are told when
 * its annotations are carried into the field on create (../defaults/apparmor-annotations.ts)
 */
export function containerWarnings(spec: CoreV1PodSpec, specPath: string, annotationsPath: string, annotations: Record<string, string>, template: boolean): string[] {
  const out: string[] = [];
  const podAppArmor = !!spec.securityContext?.appArmorProfile;
  for (const { c, path } of containersOf(spec, specPath)) {
    const seccompKey = seccompContainerPrefix + c.name;
    if (!c.securityContext?.seccompProfile && Object.hasOwn(annotations, seccompKey)) {
      out.push(`${annotationsPath}[${seccompKey}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    const appArmorKey = appArmorContainerPrefix + c.name;
    if (template && !podAppArmor && !c.securityContext?.appArmorProfile && Object.hasOwn(annotations, appArmorKey)) {
      out.push(`${annotationsPath}[${appArmorKey}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    out.push(...containerByteWarnings(c.resources, path), ...envWarnings(c, path));
  }
  return out;
}

/**
 * a second definition of a name that apply may merge away: one from valueFrom, or a value that
 * does not build on the earlier one through $(NAME) (or is that reference alone)
 */
function envWarnings(c: CoreV1Container, path: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  (c.env ?? []).forEach((e, i) => {
    if (!seen.has(e.name)) { seen.add(e.name); return; }
    const ref = `$(${e.name})`;
    const value = e.value ?? '';
    if (e.valueFrom || value === ref || !value.includes(ref)) {
      out.push(`${path}.env[${i}]: hides previous definition of ${JSON.stringify(e.name)}, which may be dropped when using apply`);
    }
  });
  return out;
}

/** a port as Go prints the internal ContainerPort with %+v */
function goPort(p: CoreV1ContainerPort): string {
  return `{Name:${p.name ?? ''} HostPort:${p.hostPort ?? 0} ContainerPort:${p.containerPort} Protocol:${p.protocol ?? ''} HostIP:${p.hostIP ?? ''}}`;
}

/** ports across all containers: a hostIP without a hostPort, and the same port and protocol declared again */
export function portWarnings(spec: CoreV1PodSpec, specPath: string): string[] {
  const out: string[] = [];
  const seen = new Map<string, Array<{ path: string; port: CoreV1ContainerPort }>>();
  for (const { c, path } of containersOf(spec, specPath)) {
    (c.ports ?? []).forEach((port, i) => {
      const here = `${path}.ports[${i}]`;
      const hostIP = port.hostIP ?? '', hostPort = port.hostPort ?? 0;
      if (hostIP !== '' && hostPort === 0) out.push(`${here}: hostIP set without hostPort: ${goPort(port)}`);
      const key = `${port.containerPort}/${port.protocol ?? ''}`;
      const others = seen.get(key) ?? [];
      for (const other of others) {
        const otherIP = other.port.hostIP ?? '', otherPort = other.port.hostPort ?? 0;
        if (hostIP === otherIP && hostPort === otherPort) out.push(`${here}: duplicate port definition with ${other.path}`);
        else if (hostPort === 0 || otherPort === 0) out.push(`${here}: overlapping port definition with ${other.path}`);
        else if (hostPort === otherPort && (hostIP === '') !== (otherIP === '')) out.push(`${here}: dangerously ambiguous port definition with ${other.path}`);
      }
      seen.set(key, [...others, { path: here, port }]);
    });
  }
  return out;
}
