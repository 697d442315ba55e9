// The shape of the type catalog that every other layer reads. The data comes from
// generated tables (src/schema/generated/, made by scripts/gen-catalog.ts) plus the
// small hand-written facts the OpenAPI document does not carry (short names, categories).

export interface GroupVersion {
  group: string; // '' for the core group
  version: string;
}

export interface SubresourceInfo {
  name: string; // 'status', 'scale', 'binding', 'eviction', 'log', ...
  kind: string; // kind of the body it takes or returns (Scale lives in group autoscaling)
  group: string;
  version: string;
  verbs: string[]; // get, update, patch, create, ...
}

export interface ResourceInfo {
  group: string;
  version: string;
  /** plural, lower case: 'pods' */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  /** verbs of the main resource: create, delete, deletecollection, get, list, patch, update, watch */
  verbs: string[];
  shortNames: string[];
  categories: string[];
  subresources: SubresourceInfo[];
  /** the definition name in the OpenAPI document, e.g. io.k8s.api.core.v1.Pod */
  definition: string;
  /** the version objects of this group+resource are stored in (all served versions share the data) */
  storageVersion: string;
  /** present on resources a CustomResourceDefinition defines */
  custom?: CustomResourceServing;
}

/** what serving a custom resource needs beyond a built-in's facts, from its CRD's version */
export interface CustomResourceServing {
  /** the CustomResourceDefinition's name (`<plural>.<group>`) */
  crd: string;
  /** the CRD is being deleted: its objects are being removed, no new ones are taken */
  terminating: boolean;
  /** the version's `deprecationWarning`, or Kubernetes' default text, when it is deprecated */
  deprecationWarning?: string;
  /** the version's `subresources.scale` paths, when it declares a scale subresource */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** the version's `schema.openAPIV3Schema` as the CRD holds it (validation, defaulting, pruning read it) */
  schema?: unknown;
  /** the version's additionalPrinterColumns (none: Kubernetes' default Age column) */
  printerColumns?: PrinterColumnSpec[];
  /** the version's selectableFields, as field selector labels (`spec.color`: the JSONPath without its dot), also published in its OpenAPI */
  selectableFields?: string[];
  /**
   * every version's schema by version name (served or not), for defaulting an object read
   * from storage by the schema of the version it is stored in
   */
  versionSchemas?: Record<string, unknown>;
}

/** one of a CRD version's additionalPrinterColumns */
export interface PrinterColumnSpec {
  name: string;
  /** integer, number, string, boolean or date */
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface GroupInfo {
  name: string;
  /** served versions, preferred first */
  versions: string[];
  preferredVersion: string;
}

export interface Catalog {
  /** the served resource for group/version/plural, or undefined */
  lookup(group: string, version: string, resource: string): ResourceInfo | undefined;
  /** every served group with its served versions, in discovery order */
  groups(): GroupInfo[];
  /** resources served in one group version (subresources are inside each entry) */
  resources(group: string, version: string): ResourceInfo[];
  /** the served resource for a kind in a group version */
  byKind(group: string, version: string, kind: string): ResourceInfo | undefined;
}
