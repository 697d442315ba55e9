// The CRI runtime.v1 services, loaded from the generated descriptor into grpc-js service
// constructors. Fields arrive camelCased; int64 values as numbers (no CRI value comes near
// 2^53: nanosecond timestamps are below it until the year 2255); enums as their names.

import { createRequire } from 'node:module';
import { loadPackageDefinition, type ServiceClientConstructor } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

const require = createRequire(import.meta.url);

export interface CriServices {
  RuntimeService: ServiceClientConstructor;
  ImageService: ServiceClientConstructor;
}

let loaded: CriServices | undefined;

export function criServices(): CriServices {
  if (loaded) return loaded;
  const json = require('./generated/cri-api.json');
  const def = fromJSON(json, { longs: Number, enums: String, defaults: true, arrays: true, objects: false });
  const pkg = loadPackageDefinition(def) as unknown as { runtime: { v1: CriServices } };
  loaded = pkg.runtime.v1;
  return loaded;
}
