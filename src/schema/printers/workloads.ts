// Printers for workload controllers' objects (apps, batch, and replication controllers).

import type { Of, Printer } from './types.ts';
import type { AppsV1ControllerRevision, AppsV1DaemonSet, AppsV1Deployment, AppsV1ReplicaSet, AppsV1StatefulSet, BatchV1CronJob, BatchV1Job, BatchV1JobSpec, BatchV1JobStatus, CoreV1ReplicationController } from '../generated/types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { boolPtr, formatLabels, humanDuration, list, nameOf, num, objAge, age, selectorString, spec, status, templateContainers, timeOf } from './format.ts';
import { formatLabelSelector, labelSelectorFromObject } from '../../api/selectors/label.ts';

const templateColumns = () => [wideColumn('Containers'), wideColumn('Images')];

export const deploymentPrinter: Printer<Of<AppsV1Deployment>> = {
  columns: [nameColumn(), col('Ready'), col('Up-to-date'), col('Available'), ageColumn(), ...templateColumns(), wideColumn('Selector')],
  cells(d, now) {
    const s = spec(d), st = status(d);
    const [c, i] = templateContainers(s.template);
    let selector: string;
    try { selector = formatLabelSelector(labelSelectorFromObject(s.selector)); } catch { selector = '<invalid>'; }
    return [nameOf(d), `${num(st.readyReplicas)}/${num(s.replicas)}`, num(st.updatedReplicas), num(st.availableReplicas), objAge(d, now), c, i, selector];
  },
};

const replicaColumns = () => [nameColumn(), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), ageColumn(), ...templateColumns(), wideColumn('Selector')];

export const replicaSetPrinter: Printer<Of<AppsV1ReplicaSet>> = {
  columns: replicaColumns(),
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [nameOf(r), num(s.replicas), num(st.replicas), num(st.readyReplicas), objAge(r, now), c, i, selectorString(s.selector)];
  },
};

export const replicationControllerPrinter: Printer<Of<CoreV1ReplicationController>> = {
  columns: replicaColumns(),
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [nameOf(r), num(s.replicas), num(st.replicas), num(st.readyReplicas), objAge(r, now), c, i, formatLabels(s.selector)];
  },
};

export const statefulSetPrinter: Printer<Of<AppsV1StatefulSet>> = {
  columns: [nameColumn(), col('Ready'), ageColumn(), ...templateColumns()],
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [nameOf(r), `${num(st.readyReplicas)}/${num(s.replicas)}`, objAge(r, now), c, i];
  },
};

export const daemonSetPrinter: Printer<Of<AppsV1DaemonSet>> = {
  columns: [
    nameColumn(), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Up-to-date', 'integer'),
    col('Available', 'integer'), col('Node Selector'), ageColumn(), ...templateColumns(), wideColumn('Selector'),
  ],
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [
      nameOf(r), num(st.desiredNumberScheduled), num(st.currentNumberScheduled), num(st.numberReady), num(st.updatedNumberScheduled),
      num(st.numberAvailable), formatLabels(s.template?.spec?.nodeSelector), objAge(r, now), c, i, selectorString(s.selector),
    ];
  },
};

/** a job condition of this type, judged by the first one listed */
function jobCondition(st: Partial<BatchV1JobStatus>, type: string): boolean {
  return list(st.conditions).find(c => c.type === type)?.status === 'True';
}

export const jobPrinter: Printer<Of<BatchV1Job>> = {
  columns: [nameColumn(), col('Status'), col('Completions'), col('Duration'), ageColumn(), ...templateColumns(), wideColumn('Selector')],
  cells(j, now) {
    const s = spec(j), st = status(j);
    const succeeded = num(st.succeeded);
    let completions: string;
    if (typeof s.completions === 'number') completions = `${succeeded}/${s.completions}`;
    else completions = num(s.parallelism) > 1 ? `${succeeded}/1 of ${s.parallelism}` : `${succeeded}/1`;
    const start = timeOf(st.startTime), end = timeOf(st.completionTime);
    const duration = start === undefined ? '' : humanDuration((end ?? now.getTime()) - start);
    let state = 'Running';
    if (jobCondition(st, 'Complete')) state = 'Complete';
    else if (jobCondition(st, 'Failed')) state = 'Failed';
    else if (j.metadata?.deletionTimestamp) state = 'Terminating';
    else if (jobCondition(st, 'Suspended')) state = 'Suspended';
    else if (jobCondition(st, 'FailureTarget')) state = 'FailureTarget';
    const [c, i] = templateContainers(s.template);
    return [nameOf(j), state, completions, duration, objAge(j, now), c, i, selectorString(s.selector)];
  },
};

export const cronJobPrinter: Printer<Of<BatchV1CronJob>> = {
  columns: [
    nameColumn(), col('Schedule'), col('Timezone'), col('Suspend', 'boolean'), col('Active', 'integer'), col('Last Schedule'),
    ageColumn(), ...templateColumns(), wideColumn('Selector'),
  ],
  cells(cj, now) {
    const s = spec(cj), st = status(cj);
    const job: Partial<BatchV1JobSpec> = s.jobTemplate?.spec ?? {};
    const [c, i] = templateContainers(job.template);
    const last = st.lastScheduleTime ? age(st.lastScheduleTime, now) : '<none>';
    return [nameOf(cj), s.schedule ?? '', s.timeZone ?? '<none>', boolPtr(s.suspend), list(st.active).length, last, objAge(cj, now), c, i, selectorString(job.selector)];
  },
};

export const controllerRevisionPrinter: Printer<Of<AppsV1ControllerRevision>> = {
  columns: [nameColumn(), col('Controller'), col('Revision'), ageColumn()],
  cells(cr, now) {
    const owner = (cr.metadata.ownerReferences ?? []).find(o => o.controller === true);
    let controller = '<none>';
    if (owner) {
      const group = String(owner.apiVersion ?? '').includes('/') ? String(owner.apiVersion).split('/')[0] : '';
      controller = `${String(owner.kind).toLowerCase()}${group ? '.' + group : ''}/${owner.name}`;
    }
    return [nameOf(cr), controller, cr.revision ?? 0, objAge(cr, now)];
  },
};
