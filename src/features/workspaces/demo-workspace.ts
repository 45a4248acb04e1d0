/** The slug of the demo workspace, which svc creates on first start (src/features/demo) with sample data. */
export const DEMO_SLUG = 'demo';

/**
 * The declaration option of the routes that open the demo workspace to everyone: its GET reads need no
 * credential, and any page may make its keyless widget calls (`keyOrSession('read', OPEN_TO_DEMO)`).
 */
export const OPEN_TO_DEMO = { openWorkspace: DEMO_SLUG } as const;
