// The converter of one CustomResourceDefinition, as kube-apiserver builds it from the CRD:
// versions outside spec.versions are refused both ways, strategy None only rewrites apiVersion,
// Webhook asks the CRD's webhook (webhook.ts). What comes out is pruned by the target version's
// schema, as kube-apiserver's schema-coercing converter does (not with preserveUnknownFields).
// The table keeps one converter per CRD generation, for the store to find by resource.

import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/object.ts';
import { StatusError } from '../../../api/status.ts';
import type { ResourceInfo } from '../../../schema/types.ts';
import { versionSchemaHooks } from '../version-schema.ts';
import type { Crd, CrdWebhookClientConfig } from '../crd-types.ts';
import { convertByWebhook, type ReviewCall } from './webhook.ts';

export interface CustomResourceConverter {
  /**
   * `objs` in `apiVersion`, objects already there as they are; `list`: they are a list page's
   * items, converted together and named by index in errors. Rejects with kube-apiserver's message.
   */
  convert(objs: KubeObject[], apiVersion: string, list?: boolean): Promise<KubeObject[]>;
  /**
   * whether an object stored as `from` must go through convert to be read as `to`; false where
   * rewriting apiVersion is all it would do (None between versions of one schema), which the
   * registry's decode does on its own
   */
  converts(from: string, to: string): boolean;
}

/** the API server's way of calling a webhook at this client configuration */
export type ReviewCaller = (clientConfig: CrdWebhookClientConfig) => ReviewCall;

export function crdConverter(crd: Crd, caller: ReviewCaller, uid: () => string = randomUUID): CustomResourceConverter {
  const group = crd.spec.group;
  const valid = new Set(crd.spec.versions.map(v => `${group}/${v.name}`));
  const schemas = new Map(crd.spec.versions.map(v => [`${group}/${v.name}`, v.schema?.openAPIV3Schema]));
  const conversion = crd.spec.conversion;
  const webhook = conversion?.strategy === 'Webhook'
    ? { conversionReviewVersions: conversion.webhook?.conversionReviewVersions ?? [], call: caller(conversion.webhook?.clientConfig ?? {}), uid }
    : undefined;
  const prune = crd.spec.preserveUnknownFields !== true;
  const schemaText = new Map([...schemas].map(([gv, schema]) => [gv, JSON.stringify(schema ?? null)]));
  const convert = async (objs: KubeObject[], apiVersion: string, list: boolean): Promise<KubeObject[]> => {
    if (!valid.has(apiVersion)) throw new Error(`request to convert CR to an invalid group/version: ${apiVersion}`);
    objs.forEach((o, i) => {
      if (valid.has(String(o.apiVersion))) return;
      throw new Error(list ? `request to convert CR list failed, list index ${i} has invalid group/version: ${o.apiVersion}` : `request to convert CR from an invalid group/version: ${o.apiVersion}`);
    });
    const out = webhook ? await convertByWebhook(webhook, objs, apiVersion, list) : objs.map(o => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }));
    if (!prune) return out;
    const hooks = versionSchemaHooks(schemas.get(apiVersion));
    return out.map((o, i) => {
      if (o === objs[i]) return o;
      const copy = structuredClone(o);
      hooks.prune(copy);
      return copy;
    });
  };
  return {
    convert: (objs, apiVersion, list = false) => convert(objs, apiVersion, list).catch(err => { throw conversionFailed(err); }),
    converts: (from, to) => from !== to && (!!webhook || !valid.has(from) || !valid.has(to) || (prune && schemaText.get(from) !== schemaText.get(to))),
  };
}

/**
 * A failed conversion as the client sees it: kube-apiserver returns the converter's error
 * as it is, which its handlers turn into a 500 Status without a reason.
 */
export function conversionFailed(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const e = new StatusError(500, '', err instanceof Error ? err.message : String(err));
  delete e.status.reason;
  return e;
}

/** the converters of the CRDs served now with several versions, by CRD name; a CRD's converter lives as long as its generation */
export class CustomResourceConversions {
  private byName = new Map<string, { generation: string; converter: CustomResourceConverter }>();
  private caller: ReviewCaller;

  constructor(caller: ReviewCaller) { this.caller = caller; }

  /** the CRDs served now (called whenever the served set changes) */
  update(crds: Crd[]): void {
    const next = new Map<string, { generation: string; converter: CustomResourceConverter }>();
    for (const crd of crds) {
      // with one version there is nothing to convert: its objects are read as stored
      if (crd.spec.versions.length < 2) continue;
      const name = crd.metadata.name!;
      const generation = `${crd.metadata.uid}/${crd.metadata.generation}`;
      const held = this.byName.get(name);
      next.set(name, held && held.generation === generation ? held : { generation, converter: crdConverter(crd, this.caller) });
    }
    this.byName = next;
  }

  /** the converter of a custom resource's CRD; undefined for built-in resources */
  forResource(info: ResourceInfo): CustomResourceConverter | undefined {
    return info.custom ? this.byName.get(info.custom.crd)?.converter : undefined;
  }
}
