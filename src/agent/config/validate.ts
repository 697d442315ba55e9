// Value checks after merging and defaults, worded as the kubelet's configuration validation.

import type { AgentConfig } from './types.ts';

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
  return out;
}
