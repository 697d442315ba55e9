// FlowSchemas and PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1): their v1
// defaults on every write, and metadata.generation, which the API Priority and Fairness config
// producer reads (a suggested object still at generation 1 was never edited by a user).

import { strategyWith } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { FlowcontrolV1FlowSchema, FlowcontrolV1PriorityLevelConfiguration } from '../../schema/generated/types.ts';
import { defaultFlowSchema, defaultPriorityLevel } from './defaults.ts';
import { conditionErrors, validateFlowSchema, validatePriorityLevel } from './validation.ts';

type FlowSchema = FlowcontrolV1FlowSchema & KubeObject;
type PriorityLevel = FlowcontrolV1PriorityLevelConfiguration & KubeObject;

export const flowSchemaStrategy = strategyWith<FlowSchema>({
  tracksGeneration: true,
  prepareForCreate: defaultFlowSchema,
  prepareForUpdate: defaultFlowSchema,
  defaults: defaultFlowSchema,
  validateCreate: obj => validateFlowSchema(obj),
  validateUpdate: obj => validateFlowSchema(obj),
  validateStatusUpdate: obj => conditionErrors(obj.status?.conditions),
});

export const priorityLevelStrategy = strategyWith<PriorityLevel>({
  tracksGeneration: true,
  prepareForCreate: defaultPriorityLevel,
  prepareForUpdate: defaultPriorityLevel,
  defaults: defaultPriorityLevel,
  validateCreate: obj => validatePriorityLevel(obj),
  validateUpdate: obj => validatePriorityLevel(obj),
  validateStatusUpdate: obj => conditionErrors(obj.status?.conditions),
});
