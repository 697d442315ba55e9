// Volume set-up failures as the kubelet reports them. A volume that cannot be set up (a missing
// ConfigMap, a hostPath of the wrong type) holds every new container of the pod in
// ContainerCreating and is told in a FailedMount event, `MountVolume.SetUp failed for volume
// "<name>" : <why>`; containers already running go on. A volume this agent cannot provide at all
// is CreateContainerConfigError with its own message instead.

import { ContainerStartError } from '../config-errors.ts';

/** one volume's failure, worded as the kubelet's operation executor words it */
export const setUpFailed = (volume: string, why: string) => `MountVolume.SetUp failed for volume ${JSON.stringify(volume)} : ${why}`;

/** the volumes of a pod that could not be set up; the others were */
export class VolumeSetupError extends ContainerStartError {
  /** one FailedMount event message per failed volume */
  readonly failedMounts: string[];
  constructor(failedMounts: string[], refused?: ContainerStartError) {
    // ContainerCreating has no message, as the kubelet's has none
    super(refused?.reason ?? 'ContainerCreating', refused?.message ?? '');
    this.failedMounts = failedMounts;
  }
}

/** a failure already in the kubelet's words for its volume, not an I/O error's text */
export class VolumeProblem extends Error {}
