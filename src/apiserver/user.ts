// Who a request is from, as authenticators name them (Kubernetes' user.Info).

export interface User {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}
