// Which StorageClass is the cluster's default: one annotated is-default-class "true" (or its
// beta spelling); with several, the newest, ties to the name first in order, as Kubernetes picks
// since 1.26. Read by the DefaultStorageClass admission step and by the binder, which gives the
// default to claims made before one existed.

interface Classy { metadata?: { name?: string; creationTimestamp?: string | null; annotations?: Record<string, string> } }

const defaultAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export function isDefaultClass(sc: Classy): boolean {
  return defaultAnnotations.some(a => sc.metadata?.annotations?.[a] === 'true');
}

export function defaultClassOf<T extends Classy>(classes: T[]): T | undefined {
  const defaults = classes.filter(isDefaultClass);
  const time = (c: Classy) => Date.parse(c.metadata?.creationTimestamp ?? '') || 0;
  defaults.sort((a, b) => time(b) - time(a) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
  return defaults[0];
}

/** the provisioner of the default class `standard` that the API server creates: orch's built-in local-path provisioner */
export const localPathProvisionerName = 'orch.io/local-path';
