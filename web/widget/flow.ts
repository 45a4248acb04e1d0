import { signal, type Signal } from '@preact/signals';
import type { WidgetBooking } from '../../src/core/widget-protocol.ts';
import type { WidgetApi } from './api.ts';
import {
  bookingRequest,
  daysRequest,
  initialState,
  next,
  requestedProvider,
  slotsRequest,
  type FlowEvent,
  type FlowOptions,
  type FlowState,
} from './machine.ts';
import { dayIn, lastDayOfMonth, zonedDateTime } from './time.ts';

export interface FlowHooks {
  /** a booking was made (before any redirect) */
  booked(booking: WidgetBooking, checkoutUrl: string | null, manageUrl: string | null): void;
  /** send the visitor to the payment page */
  redirect(url: string): void;
  /** the server refused the booking or could not be reached: a captcha token sent with it may be spent */
  refused?(): void;
  /** a captcha token for the booking; undefined when none is configured or it is not solved yet */
  captchaToken?(): string | undefined;
  now?(): number;
}

/**
 * Runs the state machine: keeps its state in a signal, and does what each state asks for (load the days of
 * the month shown, the slots of the day chosen, send the booking). Failures become events; nothing throws.
 */
export class BookingFlow {
  readonly state: Signal<FlowState>;

  constructor(
    private readonly api: WidgetApi,
    private readonly hooks: FlowHooks,
    options: FlowOptions = {},
  ) {
    this.state = signal(initialState(options));
  }

  get current(): FlowState {
    return this.state.value;
  }

  /** Loads the config (the one request made before the visitor acts). */
  async start(): Promise<void> {
    try {
      const config = await this.api.config();
      const now = this.hooks.now?.() ?? Date.now();
      this.dispatch({ type: 'configLoaded', config, today: dayIn(config.workspace.timezone, now) });
    } catch {
      this.dispatch({ type: 'configFailed' });
    }
  }

  dispatch(event: FlowEvent): void {
    const before = this.state.value;
    if (event.type === 'submit' && before.step === 'details' && !before.submitting && before.config?.booking.captcha && !this.hooks.captchaToken?.()) {
      const checked = next(before, event);
      this.state.value = checked.submitting ? next(checked, { type: 'captchaMissing' }) : checked;
      return;
    }
    const after = next(before, event);
    if (after === before) return;
    this.state.value = after;
    if (event.type === 'reload') void this.start();
    this.runEffects(before, after);
  }

  /** Pending work is done: for tests that wait for the flow to settle. */
  idle(): Promise<void> {
    return Promise.all([...this.pending]).then(() => (this.pending.size > 0 ? this.idle() : undefined));
  }

  private readonly pending = new Set<Promise<void>>();

  private track(work: Promise<void>) {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private runEffects(before: FlowState, after: FlowState) {
    const days = daysRequest(after);
    if (days && JSON.stringify(days) !== JSON.stringify(daysRequest(before))) this.track(this.loadDays(days.serviceId, days.month, days.providerId));
    const slots = slotsRequest(after);
    if (slots && JSON.stringify(slots) !== JSON.stringify(slotsRequest(before))) this.track(this.loadSlots(slots.serviceId, slots.day, slots.providerId));
    if (after.submitting && !before.submitting) this.track(this.book(after));
  }

  private async loadDays(serviceId: string, month: string, providerId: string | null) {
    try {
      const days = await this.api.days(serviceId, `${month}-01`, lastDayOfMonth(month), providerId);
      this.dispatch({ type: 'daysLoaded', serviceId, month, providerId, days });
    } catch {
      this.dispatch({ type: 'daysFailed', serviceId, month, providerId });
    }
  }

  private async loadSlots(serviceId: string, day: string, providerId: string | null) {
    try {
      const answer = await this.api.slots(serviceId, day, providerId);
      if (Array.isArray(answer)) this.dispatch({ type: 'slotsLoaded', day, providerId, slots: answer });
      else this.dispatch({ type: 'slotsLoaded', day, providerId, slots: answer.slots, seats: answer.seatsLeft ?? null });
    } catch {
      this.dispatch({ type: 'slotsFailed', day, providerId });
    }
  }

  /** Joins the waiting list of a full time of the chosen day (the time step's form). */
  joinWaitlist(time: string, email: string, name: string): Promise<'joined' | 'available' | 'failed'> {
    const state = this.current;
    if (!this.api.joinWaitlist || !state.serviceId || !state.day) return Promise.resolve('failed');
    const token = this.hooks.captchaToken?.();
    return this.api.joinWaitlist({
      serviceId: state.serviceId,
      ...(requestedProvider(state) ? { providerId: requestedProvider(state)! } : {}),
      date: zonedDateTime(state.day, time, state.config!.workspace.timezone),
      email,
      ...(name ? { name } : {}),
      ...(token ? { recaptchaToken: token } : {}),
    });
  }

  private async book(state: FlowState) {
    const result = await this.api.book(bookingRequest(state, this.hooks.captchaToken?.()));
    if (!result.ok) {
      this.hooks.refused?.();
      this.dispatch({ type: 'bookingFailed', failure: result.failure });
      return;
    }
    this.dispatch({ type: 'booked', booking: result.booking, checkoutUrl: result.checkoutUrl, manageUrl: result.manageUrl ?? null });
    this.hooks.booked(result.booking, result.checkoutUrl, result.manageUrl ?? null);
    if (result.checkoutUrl) this.hooks.redirect(result.checkoutUrl);
  }
}
