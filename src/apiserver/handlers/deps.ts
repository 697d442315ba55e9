// What the resource handlers are given: the registry (never storage) and the catalog.

import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { NodeClientTls } from '../node-stream.ts';
import type { SummaryFetcher } from '../metrics-api/scrape.ts';
import type { TokenAuthenticator } from '../authn/token.ts';
import type { TokenService } from '../../registry/subresources/token-service.ts';
import type { AdmissionChain } from '../admission/chain.ts';
import type { ApiServerMetrics } from '../metrics/apiserver-metrics.ts';

export interface HandlerDeps {
  registry: Registry;
  catalog: Catalog;
  now(): Date;
  /** server-chosen watch timeout when the client names none (seconds) */
  watchTimeoutSeconds(): number;
  /** how often a watch that asked for bookmarks gets one */
  bookmarkIntervalMs: number;
  /** client certificate for node agents (pods/log); absent: logs cannot be fetched */
  nodeClientTls?: NodeClientTls;
  /** how metrics.k8s.io reads a node's Summary; default: HTTPS with nodeClientTls, cached briefly */
  metricsFetcher?: SummaryFetcher;
  /** signs TokenRequests (serviceaccounts/<name>/token) */
  serviceAccountTokens?: TokenService;
  /** the bearer token chain, for TokenReview */
  tokenAuthenticator?: TokenAuthenticator;
  /** the admission plugins writes pass through (absent: none) */
  admission?: AdmissionChain;
  /** the request and watch figures /metrics shows (absent: not counted) */
  metrics?: ApiServerMetrics;
}
