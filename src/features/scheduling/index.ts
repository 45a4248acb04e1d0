/** The scheduling feature's public face: what other features and the composition use of it. */
export { createAvailabilityCache, invalidateOnStorageChanges } from './availability-cache.ts';
export { createBusyCache } from './busy-blocks.ts';
export { availabilityRoutes } from './availability-routes.ts';
export { availableSlots, busyMargin, parseCalendarDate, providerDay, rankProviders, resolveOffering, slotCheck, slotRules } from './availability.ts';
export type { Offering } from './availability.ts';
export { hoursRoutes } from './hours-routes.ts';
