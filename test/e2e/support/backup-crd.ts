// A CustomResourceDefinition as an operator would ship it, for the CRD acceptance test: Backup of
// example.com in v1 (deprecated: a flat bucket and retentionDays) and v2 (stored: destination and
// retention objects), CEL rules (one a transition rule with oldSelf), defaults, printer columns,
// status and scale, a list-map of hooks, and a conversion webhook. `convertBackup` is that
// webhook's logic: what a ConversionReview asks, answered as the operator's webhook would.

import type { Review } from '../../support/webhook-server.ts';

export const group = 'example.com';

/** the same CEL rules in both versions: validation runs in the version a request is made in */
// string(int) has no size bound, so a message built with it exceeds the estimated cost limit
// (kubernetes/kubernetes#124234): the message names the schedule, bounded by maxLength
const replicasRule = `{ rule: "self.replicas <= self.maxReplicas", messageExpression: "'replicas must not exceed maxReplicas for the backup scheduled at ' + self.schedule" }`;
const immutable = '{ rule: "self == oldSelf", message: "bucket is immutable" }';

const common = `
              schedule: { type: string, minLength: 1, maxLength: 64, description: "Cron schedule the backup runs on." }
              replicas: { type: integer, minimum: 0, default: 1, description: "Copies written in parallel." }
              maxReplicas: { type: integer, minimum: 1, default: 3 }
              hooks:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: { type: object, required: [name], properties: { name: { type: string }, command: { type: string } } }`;

const status = `
          status:
            type: object
            properties: { phase: { type: string }, replicas: { type: integer }, selector: { type: string } }`;

const subresources = `
    subresources:
      status: {}
      scale: { specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector }`;

export function backupCrd(webhookUrl: string, caBundle: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: backups.${group} }
spec:
  group: ${group}
  scope: Namespaced
  names: { plural: backups, singular: backup, kind: Backup, listKind: BackupList, shortNames: [bk], categories: [all] }
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: { url: "${webhookUrl}", caBundle: ${caBundle} }
  versions:
  - name: v1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "${group}/v1 Backup is deprecated; use ${group}/v2 Backup"
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [schedule, bucket]
            x-kubernetes-validations: [${replicasRule}]
            properties:${common}
              bucket: { type: string, x-kubernetes-validations: [${immutable}] }
              retentionDays: { type: integer, minimum: 1, default: 7 }${status}${subresources}
  - name: v2
    served: true
    storage: true
    additionalPrinterColumns:
    - { name: Schedule, type: string, jsonPath: .spec.schedule }
    - { name: Bucket, type: string, jsonPath: .spec.destination.bucket }
    - { name: Replicas, type: integer, jsonPath: .spec.replicas }
    - { name: Phase, type: string, jsonPath: .status.phase }
    - { name: Age, type: date, jsonPath: .metadata.creationTimestamp }
    schema:
      openAPIV3Schema:
        type: object
        description: "Backup copies a volume's data to object storage on a schedule."
        properties:
          spec:
            type: object
            description: "BackupSpec says when a backup runs, where it writes and how long copies are kept."
            required: [schedule, destination]
            x-kubernetes-validations: [${replicasRule}]
            properties:${common}
              destination:
                type: object
                description: "Where copies are written."
                required: [bucket]
                properties: { bucket: { type: string, x-kubernetes-validations: [${immutable}] } }
              retention:
                type: object
                default: {}
                properties: { days: { type: integer, minimum: 1, maximum: 3650, default: 7 } }${status}${subresources}
`;
}

type Obj = Record<string, any>;

function toV2(spec: Obj): Obj {
  const { bucket, retentionDays, ...rest } = spec;
  return { ...rest, ...(bucket !== undefined && { destination: { bucket } }), ...(retentionDays !== undefined && { retention: { days: retentionDays } }) };
}

function toV1(spec: Obj): Obj {
  const { destination, retention, ...rest } = spec;
  return { ...rest, ...(destination?.bucket !== undefined && { bucket: destination.bucket }), ...(retention?.days !== undefined && { retentionDays: retention.days }) };
}

/** the `response` of a ConversionReview: every object in the desired version, metadata untouched */
export function convertBackup(review: Review): Record<string, unknown> {
  const { uid, desiredAPIVersion, objects } = review.request as { uid: string; desiredAPIVersion: string; objects: Obj[] };
  const convertedObjects = objects.map(o => {
    if (o.apiVersion === desiredAPIVersion) return o;
    const spec = o.spec === undefined ? undefined : desiredAPIVersion.endsWith('/v2') ? toV2(o.spec) : toV1(o.spec);
    return { ...o, apiVersion: desiredAPIVersion, ...(spec && { spec }) };
  });
  return { uid, result: { status: 'Success' }, convertedObjects };
}
