// The shapes the deployment controller reads: Deployments and ReplicaSets as served.

import type { AppsV1Deployment, AppsV1ReplicaSet } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';

export type DeploymentLike = ServedInNamespace<AppsV1Deployment>;
export type ReplicaSetLike = ServedInNamespace<AppsV1ReplicaSet>;
