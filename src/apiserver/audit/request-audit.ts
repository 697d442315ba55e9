// What the request pipeline tells the audit of one request (kept apart from the recorder so that
// the request context can name it without importing the audit machinery).

import type { StatusError } from '../../api/status.ts';
import type { User } from '../user.ts';

export interface RequestAudit {
  /** the impersonated user, once impersonation succeeded */
  impersonated(user: User): void;
  /** the authorizer's verdict, as the authorization.k8s.io/* annotations */
  authorized(decision: 'allow' | 'forbid', reason: string): void;
  /** the decoded request object: its name, namespace, uid and resourceVersion fill the objectRef's empty ones */
  requestObject(obj: { metadata?: { name?: unknown; namespace?: unknown; uid?: unknown; resourceVersion?: unknown } }): void;
  /** a Status answered (errors): the event's responseStatus */
  status(err: StatusError): void;
  /** a whole response written: its code, and its body for RequestResponse events */
  response(code: number, contentType: string, body: Uint8Array): void;
  /**
   * the request is over: ResponseComplete, or Panic when it ended in an unexpected error;
   * `annotations`: those admission plugins left on the request
   */
  complete(code: number, panicked?: boolean, annotations?: Record<string, string>): void;
}
