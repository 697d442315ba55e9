// GET /version: the Kubernetes version this server answers as.

import { gitVersion, kubernetesVersion } from '../api/version.ts';

export { kubernetesVersion };

export function versionInfo(): Record<string, string> {
  return {
    major: kubernetesVersion.major,
    minor: kubernetesVersion.minor,
    emulationMajor: kubernetesVersion.major,
    emulationMinor: kubernetesVersion.minor,
    minCompatibilityMajor: kubernetesVersion.major,
    minCompatibilityMinor: String(Number(kubernetesVersion.minor) - 1),
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'orch',
    platform: `${process.platform === 'win32' ? 'windows' : process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
