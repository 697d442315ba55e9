// Dependents (pods, jobs) by the owner that controls them, and the orphans of each namespace:
// what an owner's sync may claim. Kept from the informer's events, so a sync reads its own
// dependents and the namespace's orphans instead of every object of the namespace.

import { indexBy } from '../client/informer-index.ts';
import type { Informer } from '../client/informer.ts';
import type { MetaV1ObjectMeta } from '../schema/generated/types.ts';
import { controllerRefOf } from './owner-refs.ts';

type Dependent = { metadata?: MetaV1ObjectMeta };

export interface ControllerIndex<T> {
  /** the dependents whose controller reference names this uid */
  controlledBy(uid: string | undefined): T[];
  /** the namespace's dependents without a controller */
  orphansIn(namespace: string): T[];
}

export function byController<T extends Dependent>(inf: Informer<T>): ControllerIndex<T> {
  const lookup = indexBy(inf, o => {
    const uid = controllerRefOf(o)?.uid;
    return uid ? `uid ${uid}` : `orphans ${o.metadata?.namespace ?? ''}`;
  });
  return {
    controlledBy: uid => (uid ? lookup(`uid ${uid}`) : []),
    orphansIn: ns => lookup(`orphans ${ns}`),
  };
}
