// `kubectl get apiservices`: kube-aggregator's own columns — the Service a remote APIService
// names (or Local) and its Available condition, with the reason when it is not True.

import type { Of, Printer } from './types.ts';
import type { ApiregistrationV1APIService } from '../generated/types.ts';
import { ageColumn, col, nameColumn } from './types.ts';
import { list, nameOf, objAge, spec, status } from './format.ts';

export const apiServicePrinter: Printer<Of<ApiregistrationV1APIService>> = {
  columns: [nameColumn(), col('Service'), col('Available'), ageColumn()],
  cells(a, now) {
    const svc = spec(a).service;
    const service = svc ? `${svc.namespace ?? ''}/${svc.name ?? ''}` : 'Local';
    const available = list(status(a).conditions).find(c => c.type === 'Available');
    const shown = !available ? 'Unknown' : available.status === 'True' ? 'True' : `${available.status} (${available.reason ?? ''})`;
    return [nameOf(a), service, shown, objAge(a, now)];
  },
};
