// The checks kube-apiserver makes of a CRD's conversion settings, its storedVersions and
// preserveUnknownFields, with its field paths (those of its internal type: v1's
// spec.conversion.webhook.clientConfig is reported as spec.conversion.webhookClientConfig)
// and its words. On update some checks relax, as Kubernetes relaxes them, so that a CRD
// stored before they existed can still be changed.

import type { FieldError } from '../../../api/status.ts';
import { knownReviewVersions, validateReviewVersions, validateWebhookService, validateWebhookUrl } from '../../validation/webhook-client.ts';
import { isConditionTrue, type Crd } from '../crd-types.ts';


/** what kube-apiserver's PEM loader says of a caBundle, if it has no certificate */
export function caBundleError(caBundle: string): string | undefined {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  return /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem) ? undefined : 'unable to load root certificates: unable to parse bytes as PEM block';
}

/** spec.conversion, as validateCustomResourceConversion checks it (old: the stored CRD on updates) */
export function conversionErrors(crd: Crd, old?: Crd): FieldError[] {
  const c = crd.spec.conversion;
  if (!c) return [];
  const errs: FieldError[] = [];
  const path = 'spec.conversion';
  if (!c.strategy) errs.push({ type: 'FieldValueRequired', field: `${path}.strategy` });
  else if (c.strategy !== 'None' && c.strategy !== 'Webhook') errs.push({ type: 'FieldValueNotSupported', field: `${path}.strategy`, value: c.strategy, detail: 'supported values: "None", "Webhook"' });
  const cc = c.webhook?.clientConfig;
  const versions = c.webhook?.conversionReviewVersions;
  if (c.strategy !== 'Webhook') {
    if (cc) errs.push({ type: 'FieldValueForbidden', field: `${path}.webhookClientConfig`, detail: 'should not be set when strategy is not set to Webhook' });
    if (versions?.length) errs.push({ type: 'FieldValueForbidden', field: `${path}.conversionReviewVersions`, detail: 'should not be set when strategy is not set to Webhook' });
    return errs;
  }
  const ccPath = `${path}.webhookClientConfig`;
  if (!cc) {
    errs.push({ type: 'FieldValueRequired', field: ccPath, detail: 'required when strategy is set to Webhook' });
  } else {
    if ((cc.url == null) === (cc.service == null)) errs.push({ type: 'FieldValueRequired', field: ccPath, detail: 'exactly one of url or service is required' });
    else if (cc.url != null) errs.push(...validateWebhookUrl(`${ccPath}.url`, cc.url));
    else errs.push(...validateWebhookService(`${ccPath}.service`, cc.service!));
    // an invalid bundle is let through while the CRD is not established, or when it already was invalid
    const oldBundle = old?.spec.conversion?.webhook?.clientConfig?.caBundle;
    const allowInvalid = !old || !isConditionTrue(old, 'Established') || (!!oldBundle && !!caBundleError(oldBundle));
    const bad = cc.caBundle ? caBundleError(cc.caBundle) : undefined;
    if (bad && !allowInvalid) errs.push({ type: 'FieldValueInvalid', field: `${ccPath}.caBundle`, value: cc.caBundle, detail: bad });
  }
  // a CRD stored without a known review version may keep it; a new one may not
  const oldVersions = old?.spec.conversion?.webhook?.conversionReviewVersions;
  const requireKnown = !old || !old.spec.conversion || !oldVersions?.length || oldVersions.some(v => knownReviewVersions.includes(v));
  errs.push(...validateReviewVersions(`${path}.conversionReviewVersions`, versions, requireKnown));
  return errs;
}

/** spec.preserveUnknownFields: never newly true, and never with a conversion other than None */
export function preserveUnknownFieldsErrors(crd: Crd, old?: Crd): { spec: FieldError[]; late: FieldError[] } {
  const on = crd.spec.preserveUnknownFields === true;
  const strategy = crd.spec.conversion?.strategy;
  const spec: FieldError[] = on && strategy && strategy !== 'None'
    ? [{ type: 'FieldValueInvalid', field: 'spec.conversion.strategy', value: strategy, detail: 'must be None if spec.preserveUnknownFields is true' }]
    : [];
  const late: FieldError[] = on && old?.spec.preserveUnknownFields !== true
    ? [{ type: 'FieldValueInvalid', field: 'spec.preserveUnknownFields', value: true, detail: 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead' }]
    : [];
  return { spec, late };
}

/** status.storedVersions: never empty, holding the storage version, only versions still in spec.versions */
export function storedVersionErrors(crd: Crd): FieldError[] {
  const field = 'status.storedVersions';
  const stored = crd.status?.storedVersions ?? [];
  if (!stored.length) return [{ type: 'FieldValueInvalid', field, value: crd.status?.storedVersions ?? null, detail: 'must have at least one stored version' }];
  const errs: FieldError[] = [];
  const versions = crd.spec.versions ?? [];
  for (const v of versions) {
    if (v.storage && !stored.includes(v.name)) errs.push({ type: 'FieldValueInvalid', field, value: stored, detail: `must have the storage version ${v.name}` });
  }
  stored.forEach((v, i) => {
    if (versions.some(x => x.name === v)) return;
    errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: v, detail: `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions` });
  });
  return errs;
}
