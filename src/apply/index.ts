// Field ownership (metadata.managedFields) and server-side apply.

export { applyConfiguration, recordUpdate, type ManagerContext } from './managed-fields.ts';
