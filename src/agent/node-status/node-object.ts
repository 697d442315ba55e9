// The Node an agent registers, and the status it reports.

import { gitVersion } from '../../api/version.ts';
import type { MachineFacts } from '../machine/facts.ts';
import type { NodeAddress } from './addresses.ts';
import type { NodeCondition } from './conditions.ts';
import type { NodeResources } from './resources.ts';

export interface Taint { key: string; value?: string; effect: string; timeAdded?: string }

export interface Node {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  spec?: { taints?: Taint[]; unschedulable?: boolean; podCIDR?: string; podCIDRs?: string[]; [k: string]: unknown };
  status?: NodeStatus;
}

export interface NodeStatus {
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: { kubeletEndpoint: { Port: number } };
  nodeInfo?: Record<string, unknown>;
  declaredFeatures?: string[];
  [k: string]: unknown;
}

export interface RegistrationInputs {
  name: string;
  facts: MachineFacts;
  /** --node-labels */
  labels: Record<string, string>;
  /** registerWithTaints */
  taints: Taint[];
  podCIDR?: string;
}

/** labels every agent sets on its node; --node-labels add to them */
export function defaultLabels(name: string, facts: MachineFacts): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': facts.architecture,
    'beta.kubernetes.io/os': facts.operatingSystem,
    'kubernetes.io/arch': facts.architecture,
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': facts.operatingSystem,
  };
}

export function registrationNode(inputs: RegistrationInputs): Node {
  const spec: Node['spec'] = {};
  if (inputs.taints.length) spec.taints = inputs.taints.map(t => ({ ...t }));
  if (inputs.podCIDR) { spec.podCIDR = inputs.podCIDR; spec.podCIDRs = [inputs.podCIDR]; }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: inputs.name,
      labels: { ...defaultLabels(inputs.name, inputs.facts), ...inputs.labels },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec,
  };
}

export interface StatusInputs {
  facts: MachineFacts;
  resources: NodeResources;
  addresses: NodeAddress[];
  port: number;
  runtimeVersion: string;
  declaredFeatures: string[];
}

/** the status the agent observes, conditions apart (they are stamped against the last report) */
export function nodeStatus(inputs: StatusInputs): Omit<NodeStatus, 'conditions'> {
  const f = inputs.facts;
  const status: Omit<NodeStatus, 'conditions'> = {
    capacity: inputs.resources.capacity,
    allocatable: inputs.resources.allocatable,
    addresses: inputs.addresses,
    daemonEndpoints: { kubeletEndpoint: { Port: inputs.port } },
    nodeInfo: {
      machineID: f.machineID,
      systemUUID: f.systemUUID,
      bootID: f.bootID,
      kernelVersion: f.kernelVersion,
      osImage: f.osImage,
      containerRuntimeVersion: inputs.runtimeVersion,
      kubeletVersion: gitVersion,
      operatingSystem: f.operatingSystem,
      architecture: f.architecture,
      swap: { capacity: f.swapBytes },
    },
  };
  if (inputs.declaredFeatures.length) status.declaredFeatures = inputs.declaredFeatures;
  return status;
}
