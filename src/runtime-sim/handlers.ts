// The shape every group of CRI method implementations has: method name (as the service
// definition spells it) to an async function from request to response.

import type { CriImageServiceMethods, CriInput, CriRuntimeServiceMethods } from '../agent/cri/generated/cri-types.ts';

type Methods = CriRuntimeServiceMethods & CriImageServiceMethods;

/** each implemented method takes its decoded request and answers its response (fields may be left out) */
export type Handlers = { [K in keyof Methods as Capitalize<K>]?: (req: Methods[K][0]) => Promise<CriInput<Methods[K][1]>> };
