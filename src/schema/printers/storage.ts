// Printers for volumes, claims and the storage.k8s.io resources.

import type { Of, Printer } from './types.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim, StorageV1StorageClass, StorageV1VolumeAttachment } from '../generated/types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { nameOf, objAge, orUnset, spec, status } from './format.ts';

const modeOrder: Array<[string, string]> = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];

/** access modes in Kubernetes' fixed order, abbreviated: `RWO,RWX` */
export function accessModes(modes: string[] | undefined): string {
  const have = new Set(Array.isArray(modes) ? modes : []);
  return modeOrder.filter(([m]) => have.has(m)).map(([, s]) => s).join(',');
}

const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

type Volume = Of<CoreV1PersistentVolume> | Of<CoreV1PersistentVolumeClaim>;

function storageClassOf(obj: Volume): string {
  return obj.metadata?.annotations?.[betaClassAnnotation] ?? spec(obj).storageClassName ?? '';
}

function phaseOf(obj: Volume): string {
  return obj.metadata?.deletionTimestamp ? 'Terminating' : status(obj).phase ?? '';
}

export const pvPrinter: Printer<Of<CoreV1PersistentVolume>> = {
  columns: [
    nameColumn(), col('Capacity'), col('Access Modes'), col('Reclaim Policy'), col('Status'), col('Claim'),
    col('StorageClass'), col('VolumeAttributesClass'), col('Reason'), ageColumn(), wideColumn('VolumeMode'),
  ],
  cells(pv, now) {
    const s = spec(pv);
    const claim = s.claimRef ? `${s.claimRef.namespace ?? ''}/${s.claimRef.name ?? ''}` : '';
    return [
      nameOf(pv), s.capacity?.storage ?? '0', accessModes(s.accessModes), s.persistentVolumeReclaimPolicy ?? '', phaseOf(pv), claim,
      storageClassOf(pv), orUnset(s.volumeAttributesClassName), status(pv).reason ?? '', objAge(pv, now), orUnset(s.volumeMode),
    ];
  },
};

export const pvcPrinter: Printer<Of<CoreV1PersistentVolumeClaim>> = {
  columns: [
    nameColumn(), col('Status'), col('Volume'), col('Capacity'), col('Access Modes'), col('StorageClass'),
    col('VolumeAttributesClass'), ageColumn(), wideColumn('VolumeMode'),
  ],
  cells(pvc, now) {
    const s = spec(pvc), st = status(pvc);
    // capacity and modes are the bound volume's, so they show only once bound
    const bound = !!s.volumeName;
    return [
      nameOf(pvc), phaseOf(pvc), s.volumeName ?? '', bound ? st.capacity?.storage ?? '0' : '', bound ? accessModes(st.accessModes) : '',
      storageClassOf(pvc), orUnset(s.volumeAttributesClassName), objAge(pvc, now), orUnset(s.volumeMode),
    ];
  },
};

const defaultClassAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const storageClassPrinter: Printer<Of<StorageV1StorageClass>> = {
  columns: [nameColumn(), col('Provisioner'), col('ReclaimPolicy'), col('VolumeBindingMode'), col('AllowVolumeExpansion'), ageColumn()],
  cells(sc, now) {
    const isDefault = defaultClassAnnotations.some(a => sc.metadata?.annotations?.[a] === 'true');
    return [isDefault ? `${nameOf(sc)} (default)` : nameOf(sc), sc.provisioner ?? '', sc.reclaimPolicy ?? 'Delete', sc.volumeBindingMode ?? 'Immediate', sc.allowVolumeExpansion === true, objAge(sc, now)];
  },
};

export const volumeAttachmentPrinter: Printer<Of<StorageV1VolumeAttachment>> = {
  columns: [nameColumn(), col('Attacher', 'string', 0, 'name'), col('PV'), col('Node'), col('Attached', 'boolean'), ageColumn()],
  cells(va, now) {
    const s = spec(va);
    return [nameOf(va), s.attacher ?? '', s.source?.persistentVolumeName ?? '', s.nodeName ?? '', status(va).attached === true, objAge(va, now)];
  },
};
