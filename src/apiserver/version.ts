// GET /version: the Kubernetes version this server answers as.

export const kubernetesVersion = { major: '1', minor: '36', patch: '0' };

export function versionInfo(): Record<string, string> {
  return {
    major: kubernetesVersion.major,
    minor: kubernetesVersion.minor,
    emulationMajor: kubernetesVersion.major,
    emulationMinor: kubernetesVersion.minor,
    minCompatibilityMajor: kubernetesVersion.major,
    minCompatibilityMinor: String(Number(kubernetesVersion.minor) - 1),
    gitVersion: `v${kubernetesVersion.major}.${kubernetesVersion.minor}.${kubernetesVersion.patch}-orch`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'orch',
    platform: `${process.platform === 'win32' ? 'windows' : process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
