// The `yaml` library, loaded the first time YAML is read or written (see lazy-module.ts): a
// restarted server answering JSON and Protobuf never needs it.

import type * as Yaml from 'yaml';
import { lazyModule } from './lazy-module.ts';

export const yamlLibrary = lazyModule<typeof Yaml>('yaml');
