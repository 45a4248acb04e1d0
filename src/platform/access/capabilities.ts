/** What a panel session may change: without either the panel is read-only (reads need any session of the workspace). */
export const CAPABILITIES = ['svc_manage_operations', 'svc_manage_settings'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The known names of `requested`, each once, in the order of CAPABILITIES; unknown names are dropped. */
export function knownCapabilities(requested: readonly string[]): Capability[] {
  return CAPABILITIES.filter((capability) => requested.includes(capability));
}

/**
 * What minting a credential needs (an API key or a pairing code, and revoking an API key): every capability,
 * since a new API key can do everything, so a session with svc_manage_settings alone could otherwise make
 * itself a full admin (docs/contract/panel.md §9).
 */
export const CREDENTIAL_CAPABILITIES: readonly Capability[] = ['svc_manage_operations', 'svc_manage_settings'];
