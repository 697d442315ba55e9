// The shape every group of CRI method implementations has: method name (as the service
// definition spells it) to an async function from request to response.

export type Handler = (req: Record<string, any>) => Promise<Record<string, any>>;
export type Handlers = Record<string, Handler>;
