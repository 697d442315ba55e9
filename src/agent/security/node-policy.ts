// What the node's own settings add to each pod and container before the runtime sees them:
// admission of sysctls, the sandbox's sysctls, each container's seccomp profile (checked when
// Localhost) and swap limit. Failures come back in the words the pod's status will show.

import { join } from 'node:path';
import { parseQuantity } from '../../api/quantity.ts';
import type { KernelVersion } from '../machine/kernel.ts';
import { ContainerStartError } from '../pods/config-errors.ts';
import { containerSwapLimit, criSwapResources, type SwapBehavior } from '../swap.ts';
import { podQosClass } from '../../api/qos.ts';
import { localhostProfileProblem, seccompProfileFor } from './seccomp.ts';
import { admitSysctls, sandboxSysctls, type SysctlAdmission } from './sysctls.ts';

import type { CoreV1Container, CoreV1Pod, Quantity } from '../../schema/generated/types.ts';
import type { CriSecurityProfile } from './seccomp.ts';

/** what the node adds to a container's CRI config */
export interface ContainerAdditions { securityContext: { seccomp: CriSecurityProfile }; resources: ReturnType<typeof criSwapResources> }

export interface NodePolicySettings {
  rootDir: string;
  seccompDefault: boolean;
  allowedUnsafeSysctls: string[];
  kernel: KernelVersion;
  swapBehavior: SwapBehavior;
  cgroupV2: boolean;
  nodeMemoryBytes: number;
  swapCapacityBytes: number;
}

export interface NodePolicy {
  admit(pod: CoreV1Pod): SysctlAdmission;
  /** what the node adds to the sandbox's Linux config */
  sandbox(pod: CoreV1Pod): { sysctls?: Record<string, string> };
  container(pod: CoreV1Pod, c: CoreV1Container): Promise<ContainerAdditions>;
}

const bytes = (q: Quantity | undefined) => (q === undefined ? undefined : parseQuantity(String(q)));

export function nodePolicy(s: NodePolicySettings): NodePolicy {
  const seccompDir = join(s.rootDir, 'seccomp');
  return {
    admit: pod => admitSysctls(pod, s.allowedUnsafeSysctls, s.kernel),
    sandbox(pod) {
      const sysctls = sandboxSysctls(pod);
      return Object.keys(sysctls).length ? { sysctls } : {};
    },
    async container(pod, c) {
      const seccomp = seccompProfileFor(pod, c, seccompDir, s.seccompDefault);
      const problem = await localhostProfileProblem(seccomp, seccompDir);
      if (problem) throw new ContainerStartError('CreateContainerError', problem);
      const swap = containerSwapLimit(s.swapBehavior, {
        qosClass: podQosClass(pod),
        memoryRequestBytes: bytes(c.resources?.requests?.memory) ?? 0,
        memoryLimitBytes: bytes(c.resources?.limits?.memory),
        nodeMemoryBytes: s.nodeMemoryBytes,
        swapCapacityBytes: s.swapCapacityBytes,
      });
      return { securityContext: { seccomp }, resources: criSwapResources(s.swapBehavior, s.cgroupV2, swap) };
    },
  };
}
