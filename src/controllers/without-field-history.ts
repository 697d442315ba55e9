// Objects a controller keeps in its informers, less metadata.managedFields, which it never
// reads: a write sent without them keeps the server's, so nothing is lost by not holding them.

export function withoutFieldHistory<T extends { metadata?: { managedFields?: unknown } }>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _, ...metadata } = obj.metadata;
  return { ...obj, metadata } as T;
}
