// Value checks after merging and defaults, worded as the kubelet's configuration validation.

import { featureGates } from '../features.ts';
import type { AgentConfig } from './types.ts';
import { shutdownConfigProblems } from './validate-shutdown.ts';
import { imagePullConfigProblems } from '../images/pull-policy.ts';

export function validateConfig(c: AgentConfig): string[] {
  const out: string[] = [];
  const port = (name: string, v: number, allowZero: boolean) => {
    if (!(Number.isInteger(v) && (v >= 1 || (allowZero && v === 0)) && v <= 65535)) out.push(`${name} (--${name.replace(/[A-Z]/g, m => `-${m.toLowerCase()}`)}) ${v} must be between 1 and 65535, inclusive`);
  };
  port('port', c.port, false);
  port('healthzPort', c.healthzPort, true);
  if (c.nodeLeaseDurationSeconds <= 0) out.push('nodeLeaseDurationSeconds must be greater than 0');
  if (c.maxPods < 0) out.push('maxPods must not be negative');
  if (!['NoSwap', 'LimitedSwap', ''].includes(c.memorySwap.swapBehavior)) out.push(`memorySwap.swapBehavior "${c.memorySwap.swapBehavior}" must be one of: "", "LimitedSwap" or "NoSwap"`);
  if (!['Webhook', 'AlwaysAllow'].includes(c.authorization.mode)) out.push(`authorization.mode "${c.authorization.mode}" must be one of: Webhook, AlwaysAllow`);
  if (!['systemd', 'cgroupfs'].includes(c.cgroupDriver)) out.push(`cgroupDriver "${c.cgroupDriver}" must be one of: systemd, cgroupfs`);
  for (const [i, t] of c.registerWithTaints.entries()) {
    if (!t?.key || !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) out.push(`registerWithTaints[${i}]: a taint needs a key and an effect of NoSchedule, PreferNoSchedule or NoExecute`);
  }
  const high = c.imageGCHighThresholdPercent, low = c.imageGCLowThresholdPercent;
  if (typeof high === 'number' && (high < 0 || high > 100)) out.push(`imageGCHighThresholdPercent (--image-gc-high-threshold) ${high} must be between 0 and 100, inclusive`);
  if (typeof low === 'number' && (low < 0 || low > 100)) out.push(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be between 0 and 100, inclusive`);
  if (typeof high === 'number' && typeof low === 'number' && low >= high) out.push(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${high}`);
  const policy = c['imagePullCredentialsVerificationPolicy'] as string | undefined, allowlist = c['preloadedImagesVerificationAllowlist'] as string[] | undefined;
  out.push(...imagePullConfigProblems(policy, allowlist, featureGates(c.featureGates).enabled('KubeletEnsureSecretPulledImages')));
  if (c.containerLogMaxFiles < 2) out.push(`containerLogMaxFiles (--container-log-max-files) ${c.containerLogMaxFiles} must be greater than 1`);
  out.push(...shutdownConfigProblems(c, featureGates(c.featureGates)));
  return out;
}
