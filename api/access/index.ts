// API keys and tenants (issue 36): the one access check every interface calls (api/access/README.md).
export { AccessControl, ANONYMOUS, SHARED_TOKEN, Tenant } from './access.js';
export type { Admission, Denial, DenialKind, Lease, SubscriptionShape, Usage } from './access.js';
export { INTERFACES, KeysFileError, parseKeysFile } from './keys-file.js';
export type { AccessInterface, KeyEntry, KeyLimits } from './keys-file.js';
export { KeysSource } from './keys-source.js';
export { bearer, headerKey, requestKey } from './presented-key.js';
export { subscriptionShape } from './subscription-shape.js';
export { addUsageMetrics, UsageRecorder, usageRecord, type UsageRecord } from './usage.js';
