import { t } from 'elysia';

export const BookingParams = t.Object({
  slug: t.String({ minLength: 1, maxLength: 64, description: 'workspace slug' }),
  bookingId: t.String({ minLength: 1, maxLength: 64, description: 'booking id (bk_…)' }),
});
