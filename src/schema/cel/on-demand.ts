// The CEL environment (index.ts), loaded the first time something compiles or evaluates an
// expression. Callers name its values as `cel().compileCel(…)` and its types with `import type`.

import type * as Cel from './index.ts';
import { lazyModule } from '../../api/lazy-module.ts';

export const cel = lazyModule<typeof Cel>('./index.ts', import.meta.url);
