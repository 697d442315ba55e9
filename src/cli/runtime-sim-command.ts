// `orch runtime-sim`: a simulated container runtime serving the CRI on a UNIX socket, for
// machines without containerd and for scale tests.

import { featureGatesFlag, readFeatureGates } from './feature-gates-flag.ts';
import { apiServerFeatureGates } from '../api/feature-gates.ts';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { parseDuration } from '../api/duration.ts';
import { IpPool } from '../runtime-sim/ip-pool.ts';
import { normalizeImageRef } from '../runtime-sim/image-ref.ts';
import { flag, signalled, UsageError, type Command } from './command.ts';

const list = (v: unknown) => String(v ?? '').split(',').map(s => s.trim()).filter(Boolean);

export const runtimeSimCommand: Command = {
  name: 'runtime-sim',
  summary: 'Serve a simulated container runtime (CRI runtime.v1) on a UNIX socket.',
  usage: 'orch runtime-sim --socket PATH [--start-delay DURATION] [--pull-delay DURATION] [--pod-subnet CIDR] [--checkpoint] [--checkpoint-delay DURATION] [--unpullable-images A,B] [--preload-images A,B]',
  flags: {
    socket: { type: 'string', default: '', description: 'the UNIX socket to listen on (required)' },
    'start-delay': { type: 'string', default: '0s', description: 'how long StartContainer takes before the container runs' },
    'pull-delay': { type: 'string', default: '0s', description: 'how long PullImage takes' },
    'pod-subnet': { type: 'string', default: '10.244.0.0/16', description: 'CIDR that sandbox IPs are allocated from' },
    checkpoint: { type: 'boolean', default: false, description: 'let CheckpointContainer write archives (off: UNIMPLEMENTED, as containerd 1.6)' },
    'checkpoint-delay': { type: 'string', default: '0s', description: 'how long CheckpointContainer takes to write an archive' },
    'unpullable-images': { type: 'string', default: '', description: 'comma-separated images whose pull fails as a registry without them answers' },
    'preload-images': { type: 'string', default: '', description: 'comma-separated images present from the start' },
    'feature-gates': featureGatesFlag,
    ...loggingFlags,
  },
  async run(values) {
    if (!values.socket) throw new UsageError('--socket is required');
    const startDelayMs = flag(() => parseDuration(String(values['start-delay'])));
    const pullDelayMs = flag(() => parseDuration(String(values['pull-delay'])));
    const checkpointDelayMs = flag(() => parseDuration(String(values['checkpoint-delay'])));
    const podSubnet = String(values['pod-subnet']);
    flag(() => new IpPool(podSubnet));
    const preloadedImages = list(values['preload-images']);
    for (const image of preloadedImages) if (!normalizeImageRef(image)) throw new UsageError(`--preload-images: ${JSON.stringify(image)} is not an image reference`);
    const log = loggerFromFlags(values);
    log.info('feature gates', readFeatureGates(values['feature-gates'], apiServerFeatureGates).effective());
    // the gRPC stack loads only when this command runs
    const { startRuntimeSim } = await import('../runtime-sim/server.ts');
    const sim = await startRuntimeSim({
      socket: String(values.socket),
      startDelayMs,
      pullDelayMs,
      podSubnet,
      checkpoint: values.checkpoint === true,
      checkpointDelayMs,
      unpullableImages: list(values['unpullable-images']),
      preloadedImages,
      log,
    });
    process.stdout.write(`orch runtime-sim serving the CRI on ${sim.endpoint}\n`);
    await signalled();
    await sim.stop();
    return 0;
  },
};
