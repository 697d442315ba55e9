// The admission flags as kube-apiserver reads them: default-on plugins, additions and removals,
// Kubernetes' order whatever the order given, and its errors for unknown or contradictory names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionFlagErrors, enabledAdmissionPlugins, pluginList } from '../../../../src/apiserver/admission/options.ts';
import { admissionPlugins } from '../../../../src/apiserver/admission/plugins.ts';

const defaults = admissionPlugins.filter(p => p.defaultOn).map(p => p.name);

test('no flags: the default-on plugins, in the table\'s order', () => {
  assert.deepEqual(enabledAdmissionPlugins({}), defaults);
  assert.ok(defaults.includes('NamespaceLifecycle'));
  assert.ok(!defaults.includes('AlwaysDeny') && !defaults.includes('AlwaysAdmit'));
});

test('enabled plugins join in Kubernetes\' order, not the flag\'s; disabled ones leave, even default-on ones', () => {
  const on = enabledAdmissionPlugins({ enable: ['AlwaysDeny', 'AlwaysAdmit'] });
  assert.equal(on[0], 'AlwaysAdmit', 'AlwaysAdmit is first in Kubernetes\' order');
  assert.equal(on.at(-1), 'AlwaysDeny', 'AlwaysDeny is last');
  assert.ok(!enabledAdmissionPlugins({ disable: ['NamespaceLifecycle'] }).includes('NamespaceLifecycle'));
  // naming a default-on plugin as enabled changes nothing
  assert.deepEqual(enabledAdmissionPlugins({ enable: ['NamespaceLifecycle'] }), defaults);
});

test('the table is in Kubernetes\' order for the plugins it has', () => {
  // kube-apiserver's AllOrderedPlugins, as far as orch implements them
  const kubernetesOrder = ['AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'LimitPodHardAntiAffinityTopology', 'LimitRanger', 'ServiceAccount', 'NodeRestriction', 'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook', 'PodSecurity', 'PodNodeSelector', 'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit', 'ExtendedResourceToleration', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'OwnerReferencesPermissionEnforcement', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'DenyServiceExternalIPs', 'PodTopologyLabels', 'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny'];
  const names = admissionPlugins.map(p => p.name);
  for (const n of names) assert.ok(kubernetesOrder.includes(n), `${n} is a Kubernetes plugin name`);
  assert.deepEqual(names, kubernetesOrder.filter(n => names.includes(n)));
});

test('unknown names and overlaps are kube-apiserver\'s errors', () => {
  assert.deepEqual(admissionFlagErrors({ enable: ['Nope'] }), ['enable-admission-plugins plugin "Nope" is unknown']);
  assert.deepEqual(admissionFlagErrors({ disable: ['Nada'] }), ['disable-admission-plugins plugin "Nada" is unknown']);
  assert.deepEqual(admissionFlagErrors({ enable: ['AlwaysDeny', 'NamespaceLifecycle'], disable: ['NamespaceLifecycle', 'AlwaysDeny'] }),
    ['[AlwaysDeny NamespaceLifecycle] in enable-admission-plugins and disable-admission-plugins overlapped']);
  assert.throws(() => enabledAdmissionPlugins({ enable: ['Nope'] }), { message: 'enable-admission-plugins plugin "Nope" is unknown' });
  assert.throws(() => enabledAdmissionPlugins({ enable: ['Nope'], disable: ['Nada'] }),
    { message: '[enable-admission-plugins plugin "Nope" is unknown, disable-admission-plugins plugin "Nada" is unknown]' });
});

test('flag values: comma-separated, spaces and empty entries ignored', () => {
  assert.deepEqual(pluginList(' AlwaysDeny, ,NamespaceLifecycle,'), ['AlwaysDeny', 'NamespaceLifecycle']);
  assert.deepEqual(pluginList(''), []);
});
