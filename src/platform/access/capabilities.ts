/** The capabilities a panel session can hold (decisions section 8); without either the panel is read-only. */
export const CAPABILITIES = ['svc_manage_operations', 'svc_manage_settings'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The known names of `requested`, each once, in the order of CAPABILITIES; unknown names are dropped. */
export function knownCapabilities(requested: readonly string[]): Capability[] {
  return CAPABILITIES.filter((capability) => requested.includes(capability));
}
