/** The demo feature's public face: what other features and the composition use of it. */
export { ensureDemoWorkspace } from './seed.ts';
