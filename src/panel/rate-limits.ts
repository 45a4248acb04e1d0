import type { RateLimitRule } from '../http/rate-limit.ts';

const INTEGRATION_PATH = /^\/api\/integrations\/(hostplatform|wordpress)\/panel\/(origin|bootstrap)$/;

/** Decisions section 6: origin linking 10 and bootstrap 60 requests per minute, per client IP. */
export const panelRateLimits: RateLimitRule[] = [
  { name: 'panel-link', limit: 10, perKey: false, applies: (_method, path) => INTEGRATION_PATH.exec(path)?.[2] === 'origin' },
  { name: 'panel-bootstrap', limit: 60, perKey: false, applies: (_method, path) => INTEGRATION_PATH.exec(path)?.[2] === 'bootstrap' },
];
