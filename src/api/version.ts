// The Kubernetes version every orch component answers as (API server, agent, controllers).

export const kubernetesVersion = { major: '1', minor: '36', patch: '0' };

/** "v1.36.0-orch": the gitVersion the API server and the node agent report */
export const gitVersion = `v${kubernetesVersion.major}.${kubernetesVersion.minor}.${kubernetesVersion.patch}-orch`;
