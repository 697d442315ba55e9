// Objects as the API serves them: the generated types say every field may be absent, but a
// stored object always has its name (and a namespaced one its namespace). Code reading served
// objects types them through these.

import type { MetaV1ObjectMeta } from './generated/types.ts';

export interface ServedMeta extends MetaV1ObjectMeta { name: string }

/** a cluster-scoped object read from the API */
export type Served<T extends { metadata?: MetaV1ObjectMeta }> = T & { metadata: ServedMeta };

/** a namespaced object read from the API */
export type ServedInNamespace<T extends { metadata?: MetaV1ObjectMeta }> = T & { metadata: ServedMeta & { namespace: string } };
