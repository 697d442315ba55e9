// certificatesigningrequests/approval: where a CSR is approved or denied (`kubectl certificate
// approve|deny` PUTs here). Only status.conditions change through it; who may add an Approved or
// Denied condition for which signer is the CertificateApproval admission plugin's check.

import { prepareApproval, validateApproval } from '../certificates/csr.ts';
import { ownKind, type Subresource } from './subresource.ts';

export const approvalSubresource: Subresource = {
  name: 'approval',
  verbs: ['get', 'patch', 'update'],
  connect: false,
  kind: ownKind,
  ownedFields: [['status', 'conditions']],
  view: { apply: true },
  writes: {
    prepare: (obj, current, _strategy, ctx) => prepareApproval(obj, current, ctx.now),
    validate: (obj, current) => validateApproval(obj, current),
  },
};
