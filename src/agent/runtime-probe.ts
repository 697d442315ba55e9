// What the node status needs from the container runtime: whether it and its network are ready,
// and its name and version. Backed by the CRI client's Status and Version calls.

export interface RuntimeState {
  /** reasons the node is not ready on the runtime's account (empty: ready) */
  notReadyReasons: string[];
  /** "containerd://1.6.20", as nodeInfo.containerRuntimeVersion shows it; "" when unknown */
  version: string;
}

export interface RuntimeProbe {
  state(): Promise<RuntimeState>;
}

interface CriLike {
  version(req: Record<string, never>): Promise<{ runtimeName?: string; runtimeVersion?: string }>;
  status(req: Record<string, unknown>): Promise<{ status?: { conditions?: Array<{ type?: string; status?: boolean; reason?: string; message?: string }> } }>;
}

/** the runtime's state through the CRI; a runtime that does not answer is down */
export function criRuntimeProbe(connect: () => Promise<CriLike>): RuntimeProbe {
  let client: Promise<CriLike> | undefined;
  return {
    async state() {
      try {
        client ??= connect();
        const cri = await client;
        const [version, status] = await Promise.all([cri.version({}), cri.status({})]);
        const reasons: string[] = [];
        for (const c of status.status?.conditions ?? []) {
          if (c.status) continue;
          if (c.type === 'RuntimeReady') reasons.push(`container runtime not ready: RuntimeReady=false reason:${c.reason ?? ''} message:${c.message ?? ''}`);
          if (c.type === 'NetworkReady') reasons.push(`container runtime network not ready: NetworkReady=false reason:${c.reason ?? ''} message:${c.message ?? ''}`);
        }
        return { notReadyReasons: reasons, version: version.runtimeName ? `${version.runtimeName}://${version.runtimeVersion ?? ''}` : '' };
      } catch {
        client = undefined;
        return { notReadyReasons: ['container runtime is down'], version: '' };
      }
    },
  };
}
