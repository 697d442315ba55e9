// Workload controllers' objects.

import type { Printer } from './types.ts';
import { col, nameColumn } from './types.ts';
import { age, mapSelector, num, objAge, orNone, selectorString, spec, status, templateContainers } from './format.ts';

const wide = () => [col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)];

export const deploymentPrinter: Printer = {
  columns: [nameColumn(), col('Ready'), col('Up-to-date', 'integer'), col('Available', 'integer'), col('Age'), ...wide()],
  cells(d, now) {
    const s = spec(d), st = status(d);
    const [c, i] = templateContainers(s.template);
    return [d.metadata.name, `${num(st.readyReplicas)}/${num(s.replicas)}`, num(st.updatedReplicas), num(st.availableReplicas), objAge(d, now), c, i, selectorString(s.selector)];
  },
};

export const replicaSetPrinter: Printer = {
  columns: [nameColumn(), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Age'), ...wide()],
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [r.metadata.name, num(s.replicas), num(st.replicas), num(st.readyReplicas), objAge(r, now), c, i, selectorString(s.selector)];
  },
};

export const replicationControllerPrinter: Printer = {
  columns: replicaSetPrinter.columns,
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [r.metadata.name, num(s.replicas), num(st.replicas), num(st.readyReplicas), objAge(r, now), c, i, mapSelector(s.selector)];
  },
};

export const statefulSetPrinter: Printer = {
  columns: [nameColumn(), col('Ready'), col('Age'), col('Containers', 'string', 1), col('Images', 'string', 1)],
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [r.metadata.name, `${num(st.readyReplicas)}/${num(s.replicas)}`, objAge(r, now), c, i];
  },
};

export const daemonSetPrinter: Printer = {
  columns: [nameColumn(), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Up-to-date', 'integer'), col('Available', 'integer'), col('Node Selector'), col('Age'), ...wide()],
  cells(r, now) {
    const s = spec(r), st = status(r);
    const [c, i] = templateContainers(s.template);
    return [r.metadata.name, num(st.desiredNumberScheduled), num(st.currentNumberScheduled), num(st.numberReady), num(st.updatedNumberScheduled), num(st.numberAvailable), mapSelector(s.template?.spec?.nodeSelector), objAge(r, now), c, i, selectorString(s.selector)];
  },
};

export const jobPrinter: Printer = {
  columns: [nameColumn(), col('Status'), col('Completions'), col('Duration'), col('Age'), ...wide()],
  cells(j, now) {
    const s = spec(j), st = status(j);
    const conds = (st.conditions ?? []) as Array<Record<string, string>>;
    const has = (t: string) => conds.some(c => c.type === t && c.status === 'True');
    const state = has('Complete') ? 'Complete' : has('Failed') ? 'Failed' : has('FailureTarget') ? 'FailureTarget' : has('Suspended') ? 'Suspended' : 'Running';
    const completions = s.completions !== undefined ? `${num(st.succeeded)}/${s.completions}` : `${num(st.succeeded)}/1 of ${num(s.parallelism)}`;
    let duration = '';
    if (st.startTime) {
      const end = st.completionTime ? Date.parse(st.completionTime) : now.getTime();
      duration = age(st.startTime, new Date(end));
    }
    const [c, i] = templateContainers(s.template);
    return [j.metadata.name, state, completions, duration, objAge(j, now), c, i, selectorString(s.selector)];
  },
};

export const cronJobPrinter: Printer = {
  columns: [nameColumn(), col('Schedule'), col('Timezone'), col('Suspend', 'boolean'), col('Active', 'integer'), col('Last Schedule'), col('Age'), ...wide()],
  cells(cj, now) {
    const s = spec(cj), st = status(cj);
    const [c, i] = templateContainers(s.jobTemplate?.spec?.template);
    return [cj.metadata.name, s.schedule, orNone(s.timeZone), !!s.suspend, (st.active ?? []).length, st.lastScheduleTime ? age(st.lastScheduleTime, now) : '<none>', objAge(cj, now), c, i, selectorString(s.jobTemplate?.spec?.selector)];
  },
};
