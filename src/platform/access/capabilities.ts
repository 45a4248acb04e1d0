/** What a panel session may change: without either the panel is read-only (reads need any session of the workspace). */
export const CAPABILITIES = ['svc_manage_operations', 'svc_manage_settings'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The known names of `requested`, each once, in the order of CAPABILITIES; unknown names are dropped. */
export function knownCapabilities(requested: readonly string[]): Capability[] {
  return CAPABILITIES.filter((capability) => requested.includes(capability));
}
