// resource.k8s.io v1beta1 ↔ v1 (the storage version; v1beta2 has v1's shape): v1beta1 nests a
// device's fields under `basic`, and a request's exact-device fields sit on the request itself
// where v1 puts them under `exactly` (a request with `firstAvailable` has neither).

type Json = Record<string, any>;

const exactFields = ['deviceClassName', 'selectors', 'allocationMode', 'count', 'adminAccess', 'tolerations', 'capacity'];

function requestToV1(r: Json): Json {
  if (r.firstAvailable) return r;
  const out: Json = { name: r.name };
  const exactly: Json = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'name') continue;
    if (exactFields.includes(k)) exactly[k] = v; else out[k] = v;
  }
  if (Object.keys(exactly).length) out.exactly = exactly;
  return out;
}

function requestToV1beta1(r: Json): Json {
  const { exactly, ...rest } = r;
  return exactly ? { ...rest, ...exactly } : rest;
}

const deviceToV1 = (d: Json): Json => { const { basic, ...rest } = d; return basic ? { ...rest, ...basic } : rest; };
const deviceToV1beta1 = (d: Json): Json => {
  const { name, ...basic } = d;
  return Object.keys(basic).length ? { name, basic } : { name };
};

function mapRequests(spec: Json | undefined, f: (r: Json) => Json): Json | undefined {
  if (!spec?.devices?.requests) return spec;
  return { ...spec, devices: { ...spec.devices, requests: (spec.devices.requests as Json[]).map(f) } };
}

/** a ResourceClaim, ResourceClaimTemplate or ResourceSlice in `to` (v1 or v1beta1 shape) */
export function convertResourceObject(obj: Json, to: 'v1' | 'v1beta1'): Json {
  const req = to === 'v1' ? requestToV1 : requestToV1beta1;
  switch (obj.kind) {
    case 'ResourceClaim': return { ...obj, spec: mapRequests(obj.spec, req) };
    case 'ResourceClaimTemplate': return obj.spec ? { ...obj, spec: { ...obj.spec, spec: mapRequests(obj.spec.spec, req) } } : obj;
    case 'ResourceSlice': return obj.spec?.devices ? { ...obj, spec: { ...obj.spec, devices: (obj.spec.devices as Json[]).map(to === 'v1' ? deviceToV1 : deviceToV1beta1) } } : obj;
    default: return obj;
  }
}
