// The kinds a watch-consistency run may write: each carries a counter the writers raise, read
// back from lists and events so that a lost update shows as a smaller number.

export interface CheckedResource {
  resource: string;
  kind: string;
  /** the object's payload holding the counter */
  payload(counter: number, writer: string): Record<string, unknown>;
  counterOf(obj: any): number | undefined;
}

const fromText = (s: unknown): number | undefined => (typeof s === 'string' && /^\d+$/.test(s) ? Number(s) : undefined);

const configmaps: CheckedResource = {
  resource: 'configmaps',
  kind: 'ConfigMap',
  payload: (counter, writer) => ({ data: { counter: String(counter), writer } }),
  counterOf: obj => fromText(obj?.data?.counter),
};

// Secrets go through encryption at rest when the server has it configured: the same check then
// covers the encrypting layer
const secrets: CheckedResource = {
  resource: 'secrets',
  kind: 'Secret',
  payload: (counter, writer) => ({ type: 'Opaque', data: { counter: Buffer.from(String(counter)).toString('base64'), writer: Buffer.from(writer).toString('base64') } }),
  counterOf: obj => (typeof obj?.data?.counter === 'string' ? fromText(Buffer.from(obj.data.counter, 'base64').toString()) : undefined),
};

export const checkedResources: Record<string, CheckedResource> = { configmaps, secrets };
