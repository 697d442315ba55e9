// ExecSync and CheckpointContainer: calls that act inside a running container.

import { findContainer } from './container-handlers.ts';
import { writeCheckpoint } from './checkpoint.ts';
import { invalidArgument, unimplemented, unknown } from './grpc-errors.ts';
import type { Handlers } from './handlers.ts';
import type { SimRuntime } from './runtime-state.ts';

export function execHandlers(rt: SimRuntime): Handlers {
  return {
    async ExecSync(req) {
      const c = findContainer(rt, req.containerId);
      return c.exec(req.cmd ?? [], Number(req.timeout ?? 0));
    },

    async CheckpointContainer(req) {
      if (!rt.settings.checkpoint) throw unimplemented('CheckpointContainer');
      const c = findContainer(rt, req.containerId);
      if (!req.location) throw invalidArgument('checkpoint location must be set');
      if (c.state !== 'CONTAINER_RUNNING') throw unknown(`container "${c.id}" is not running`);
      await writeCheckpoint(c, req.location, rt.settings.clock.now());
      rt.settings.log.debug('container checkpointed', { id: c.id, location: req.location });
      return {};
    },
  };
}
