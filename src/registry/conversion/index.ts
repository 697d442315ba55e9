// One resource served in several versions converts between them through one internal (hub)
// form, its storage version, as Kubernetes converts them. Resources whose versions share one
// shape (most) only change apiVersion; the table below lists those that differ, found by
// comparing the versions' schemas in the reference OpenAPI document.

import type { KubeObject } from '../../api/object.ts';
import { hpaToV1, hpaToV2 } from './hpa.ts';
import { convertResourceObject } from './resource-v1beta1.ts';

type Json = Record<string, any>;

interface Conversion {
  /** the version objects are stored in: the hub every other version converts through */
  storage: string;
  toHub(obj: Json, from: string): Json;
  fromHub(obj: Json, to: string): Json;
}

const resourceV1beta1: Conversion = {
  storage: 'v1',
  toHub: (obj, from) => (from === 'v1beta1' ? convertResourceObject(obj, 'v1') : obj),
  fromHub: (obj, to) => (to === 'v1beta1' ? convertResourceObject(obj, 'v1beta1') : obj),
};

const conversions: Record<string, Conversion> = {
  'autoscaling/HorizontalPodAutoscaler': {
    storage: 'v2',
    toHub: (obj, from) => (from === 'v1' ? hpaToV2(obj) : obj),
    fromHub: (obj, to) => (to === 'v1' ? hpaToV1(obj) : obj),
  },
  'resource.k8s.io/ResourceClaim': resourceV1beta1,
  'resource.k8s.io/ResourceClaimTemplate': resourceV1beta1,
  'resource.k8s.io/ResourceSlice': resourceV1beta1,
};

function split(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** whether objects of this kind differ between versions (and may not be read as stored) */
export function convertsBetweenVersions(apiVersion: string, kind: string): boolean {
  return `${split(apiVersion)[0]}/${kind}` in conversions;
}

/** the object as `apiVersion` serves it; objects already in that version are returned as they are */
export function convertObject<T extends KubeObject>(obj: T, apiVersion: string): T {
  if (obj.apiVersion === apiVersion) return obj;
  const [group, from] = split(String(obj.apiVersion));
  const conv = conversions[`${group}/${obj.kind}`];
  const [toGroup, to] = split(apiVersion);
  if (!conv || toGroup !== group) return { ...obj, apiVersion };
  const out = conv.fromHub(conv.toHub(obj, from), to);
  return { ...out, apiVersion } as T;
}

/** the object in its storage version, for kinds whose versions differ; others as written */
export function toStorageVersion<T extends KubeObject>(obj: T): T {
  const [group] = split(String(obj.apiVersion));
  const conv = conversions[`${group}/${obj.kind}`];
  return conv ? convertObject(obj, group ? `${group}/${conv.storage}` : conv.storage) : obj;
}
