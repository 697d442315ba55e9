// The `ws` library, loaded with the first WebSocket a process accepts or opens (see
// api/lazy-module.ts): most processes never handle one.

import type * as Ws from 'ws';
import { lazyModule } from '../../api/lazy-module.ts';

export const wsLibrary = lazyModule<typeof Ws>('ws');
