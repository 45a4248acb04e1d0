/*
 * What the booking widget (web/widget/) and the server exchange: the shapes of the public routes the widget
 * calls. The browser code imports only this module from src/, so it holds types and nothing else. The server's
 * TypeBox schemas (src/features/workspaces/model.ts, src/features/bookings/model.ts) are what the API validates; src/features/workspaces/widget-config.ts
 * builds its answer as a `WidgetConfig`, so the two cannot drift apart silently.
 */

export type WidgetCustomFieldType = 'text' | 'textarea' | 'number' | 'select' | 'checkbox' | 'phone' | 'email' | 'date';

export interface WidgetCustomField {
  id: string;
  key: string;
  label: string;
  type: WidgetCustomFieldType | (string & {});
  required: boolean;
  options: string[] | null;
  placeholder: string | null;
  order: number;
  /** services whose form shows the field; empty = every service */
  serviceIds: string[];
}

export interface WidgetService {
  id: string;
  name: string;
  description: string | null;
  /** minutes */
  duration: number;
  /** decimal major units of `currency` */
  price: number;
  currency: string;
  /** the part due at booking, decimal major units; null when the whole price is due */
  depositAmount: number | null;
  /** the active providers offering it */
  providerIds: string[];
  /** the widget offers "Repeat weekly" (docs/contract/series.md) */
  repeatable: boolean;
}

export interface WidgetProvider {
  id: string;
  name: string;
}

export type CaptchaProvider = 'recaptcha' | 'turnstile' | 'hcaptcha';

export interface WidgetWorkspace {
  id: string;
  name: string;
  slug: string;
  /** #rrggbb or null */
  primaryColor: string | null;
  /** IANA time zone: the days and times the widget shows are in it */
  timezone: string;
  /** BCP 47 */
  language: string;
  /** BCP 47 locale days and amounts are written in (`en-GB` writes 24 March 2026); the language when none is set */
  locale: string;
  timeFormat: '24h' | '12h';
  /** ISO 4217 */
  currency: string;
  logoUrl: string | null;
}

export interface WidgetConfig {
  success: true;
  workspace: WidgetWorkspace;
  customFields: WidgetCustomField[];
  services: WidgetService[];
  providers: WidgetProvider[];
  booking: {
    /** whether a keyless booking from the requesting page's origin would pass the domain check */
    allowed: boolean;
    captcha: { provider: CaptchaProvider; siteKey: string } | null;
    /** a price or deposit is collected online when booking (SVC_PAYMENTS is not none); false: all at the appointment */
    onlinePayment: boolean;
  };
}

export interface AvailableDays {
  success: true;
  days: string[];
  timezone: string;
  /** classes and waiting-list services: places left per day and time (full times of a waiting list with 0) */
  seatsLeft?: Record<string, Record<string, number>>;
}

export interface AvailableSlots {
  success: true;
  /** HH:mm in the workspace zone */
  slots: string[];
  timezone: string;
  /** classes and waiting-list services: places left per time (full times of a waiting list with 0) */
  seatsLeft?: Record<string, number>;
}

/** The body of a keyless createBooking. */
export interface WidgetBookingRequest {
  serviceId: string;
  providerId?: string;
  email: string;
  name?: string;
  phone?: string;
  /** the exact instant with the workspace's offset, such as 2026-03-30T09:00:00+02:00 */
  date: string;
  notes?: string;
  recaptchaToken?: string;
  customFields?: Record<string, string | number | boolean>;
  /** "Repeat weekly" on a repeatable service (docs/contract/series.md) */
  repeat?: { frequency: 'weekly'; interval: number; count: number };
}

export interface WidgetBooking {
  id: string;
  /** RFC 3339 UTC */
  startTime: string;
  endTime: string;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';
  customerName: string | null;
  customerEmail: string;
  serviceName: string | null;
  providerName: string | null;
  amount: number | null;
  serviceId: string;
  providerId: string;
}

export interface WidgetBookingResponse {
  success: true;
  booking: WidgetBooking;
  checkoutUrl?: string | null;
  /** the customer's manage page (`{app_url}/manage/{token}`): shown on the confirmation, the only copy without mail */
  manageUrl?: string | null;
}

export interface ApiErrorBody {
  success: false;
  error: string;
  code: string;
  details?: { path: string; message: string }[];
}
