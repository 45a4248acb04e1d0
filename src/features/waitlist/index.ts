/** The waiting-list feature's public face: its v1 routes and the offer link's page and JSON. */
export { waitlistLinkRoutes, waitlistRoutes } from './routes.ts';
