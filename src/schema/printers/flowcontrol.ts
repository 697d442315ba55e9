// Printers for API Priority and Fairness' configuration, with kube-apiserver's columns: which
// level a FlowSchema feeds and whether that level is missing (its Dangling condition, `?` before
// the server has judged it), and a level's type, shares and queues (`<none>` where it has none).

import type { Of, Printer } from './types.ts';
import type { FlowcontrolV1FlowSchema, FlowcontrolV1PriorityLevelConfiguration } from '../generated/types.ts';
import { ageColumn, col, nameColumn } from './types.ts';
import { nameOf, objAge, spec, status } from './format.ts';

export const flowSchemaPrinter: Printer<Of<FlowcontrolV1FlowSchema>> = {
  columns: [nameColumn(), col('PriorityLevel'), col('MatchingPrecedence'), col('DistinguisherMethod'), ageColumn(), col('MissingPL')],
  cells(fs, now) {
    const s = spec(fs);
    const dangling = (status(fs).conditions ?? []).find(c => c.type === 'Dangling');
    return [nameOf(fs), s.priorityLevelConfiguration?.name ?? '', s.matchingPrecedence ?? 0, s.distinguisherMethod?.type ?? '<none>', objAge(fs, now), dangling?.status ?? '?'];
  },
};

export const priorityLevelPrinter: Printer<Of<FlowcontrolV1PriorityLevelConfiguration>> = {
  columns: [nameColumn(), col('Type'), col('NominalConcurrencyShares'), col('Queues'), col('HandSize'), col('QueueLengthLimit'), ageColumn()],
  cells(pl, now) {
    const s = spec(pl);
    const limited = s.limited;
    const queuing = limited?.limitResponse?.queuing;
    const none = '<none>';
    return [
      nameOf(pl), s.type ?? '', limited ? limited.nominalConcurrencyShares ?? 0 : none,
      queuing?.queues ?? none, queuing?.handSize ?? none, queuing?.queueLengthLimit ?? none, objAge(pl, now),
    ];
  },
};
