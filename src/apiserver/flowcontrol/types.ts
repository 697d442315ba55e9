// The contract between API Priority and Fairness' two halves: the configuration (FlowSchemas and
// PriorityLevelConfigurations, kept by the bootstrap and status controllers, matched against each
// request) and the dispatcher (seats, fair queues, rejection). The server asks the classifier
// which flow and priority level a request belongs to, then the dispatcher when it may run.

import type { User } from '../user.ts';
import type { RequestInfo } from '../request-info.ts';

/** a PriorityLevelConfiguration's spec as the dispatcher needs it */
export interface PriorityLevel {
  name: string;
  uid: string;
  /** Exempt levels never queue and are never rejected */
  exempt: boolean;
  nominalConcurrencyShares: number;
  lendablePercent: number;
  /** absent: unlimited borrowing (Kubernetes' nil) */
  borrowingLimitPercent?: number;
  /** absent on a Limited level: limitResponse Reject (no queues) */
  queuing?: { queues: number; handSize: number; queueLengthLimit: number };
}

export interface FlowClassification {
  flowSchema: { name: string; uid: string };
  priorityLevel: PriorityLevel;
  /** the distinguisher's value (user name, namespace, or '' without a distinguisher method) */
  distinguisher: string;
}

export interface FlowClassifier {
  /** which FlowSchema matches first by matchingPrecedence (then name), and its level */
  classify(user: User, info: RequestInfo): FlowClassification;
  /** every priority level now configured, for the dispatcher to size its queues and seats */
  priorityLevels(): PriorityLevel[];
  /** called after the configuration changed (objects written, bootstrap done) */
  onChange(listener: () => void): void;
}
