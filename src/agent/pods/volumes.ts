// Pod volumes on the host: the modules in volumes/, one per concern, gathered here for the
// syncer and the agent's other parts (stats, termination messages).

export { podDir, volumeDir, volumesDir } from './volumes/layout.ts';
export { prepareVolumes } from './volumes/prepare.ts';
export { containerMounts, type PreparedVolume } from './volumes/container-mounts.ts';
export { removeOrphanedPodDirs, removePodDir, unmountPodVolumes } from './volumes/teardown.ts';
export { podVolumePaths, podVolumeUsage, type VolumeUsage } from './volumes/usage.ts';
export { VolumeSetupError } from './volumes/volume-error.ts';
