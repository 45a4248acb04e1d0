/*
 * The booking flow as a pure state machine: service → provider (a service with several) → day → time → details → done. `next(state, event)` returns
 * the new state and never touches the DOM or the network; flow.ts runs the effects, components render the
 * state. Tests drive it directly.
 */
import type { WidgetBooking, WidgetBookingRequest, WidgetConfig, WidgetCustomField, WidgetProvider, WidgetService } from '../../src/core/widget-protocol.ts';
import { monthOf, zonedDateTime } from './time.ts';

export type Step = 'loading' | 'failed' | 'unavailable' | 'service' | 'provider' | 'day' | 'time' | 'details' | 'redirecting' | 'done';

/** What the visitor typed. Custom fields by key: text as typed, checkboxes as booleans. */
export interface FormValues {
  name: string;
  email: string;
  phone: string;
  notes: string;
  custom: Record<string, string | boolean>;
  /** "Repeat weekly" on a repeatable service: `yes` when ticked, every `every` weeks, `count` dates in all */
  repeat: string;
  every: string;
  count: string;
}

/** Field names in `errors`: name, email, phone, notes, or `cf:<key>` for a custom field. */
export type FieldErrors = Record<string, ErrorText>;

/** An error as a message id of the strings table, or a server's own words. */
export type ErrorText = { id: 'required' | 'invalidEmail' | 'invalidNumber' | 'chooseOption' } | { text: string };

export type Notice =
  | { kind: 'taken' }
  | { kind: 'forbidden' }
  | { kind: 'retry' }
  | { kind: 'fixFields' }
  | { kind: 'captcha' }
  | { kind: 'server'; text: string };

export type Loadable<T> = { status: 'loading' } | { status: 'error' } | { status: 'ready'; value: T };

export interface FlowState {
  step: Step;
  config: WidgetConfig | null;
  /** the workspace's today, `YYYY-MM-DD`: the calendar starts there */
  today: string;
  serviceId: string | null;
  /** data-provider: every availability and booking request names it, and the provider step is never shown */
  providerId: string | null;
  /** the visitor's pick on the provider step; null: any available (svc assigns fairly, docs/contract/classes.md) */
  pickedProviderId: string | null;
  /** `YYYY-MM` shown in the calendar */
  month: string;
  days: Loadable<string[]>;
  day: string | null;
  slots: Loadable<string[]>;
  /** places left per time (classes, waiting lists); full times of a waiting list with 0; null: not counted */
  seats: Record<string, number> | null;
  time: string | null;
  form: FormValues;
  errors: FieldErrors;
  notice: Notice | null;
  submitting: boolean;
  booking: WidgetBooking | null;
  checkoutUrl: string | null;
  /** the customer's manage page of the booking made */
  manageUrl: string | null;
  /** the flow moved to a new step: components move the focus to its heading */
  stepChanges: number;
}

export type BookingFailure =
  | { kind: 'taken' }
  | { kind: 'forbidden' }
  | { kind: 'network' }
  | { kind: 'invalid'; message: string; details: { path: string; message: string }[] };

export type FlowEvent =
  | { type: 'configLoaded'; config: WidgetConfig; today: string }
  | { type: 'configFailed' }
  | { type: 'reload' }
  | { type: 'retryLoad' }
  /** a time's places changed under the visitor (a full one freed up): load the day's times again */
  | { type: 'reloadTimes' }
  | { type: 'chooseService'; serviceId: string }
  /** the provider step: a provider of the chosen service, or null for any available */
  | { type: 'chooseProvider'; providerId: string | null }
  | { type: 'showMonth'; month: string }
  | { type: 'daysLoaded'; serviceId: string; month: string; providerId?: string | null; days: string[] }
  | { type: 'daysFailed'; serviceId: string; month: string; providerId?: string | null }
  | { type: 'chooseDay'; day: string }
  | { type: 'slotsLoaded'; day: string; providerId?: string | null; slots: string[]; seats?: Record<string, number> | null }
  | { type: 'slotsFailed'; day: string; providerId?: string | null }
  | { type: 'chooseTime'; time: string }
  | { type: 'edit'; field: string; value: string | boolean }
  | { type: 'prefill'; values: Prefill }
  | { type: 'submit' }
  | { type: 'captchaMissing' }
  | { type: 'booked'; booking: WidgetBooking; checkoutUrl: string | null; manageUrl?: string | null }
  | { type: 'bookingFailed'; failure: BookingFailure }
  | { type: 'back' }
  | { type: 'restart' }
  /** the page was left for the checkout and came back: the booking made then still holds its time */
  | { type: 'resume'; booking: WidgetBooking; checkoutUrl: string; manageUrl: string | null }
  /** the visitor leaves the held booking to its hold and books afresh */
  | { type: 'dismissHeld' };

export interface Prefill {
  name?: string;
  email?: string;
  phone?: string;
  customFields?: Record<string, string | number | boolean>;
}

export interface FlowOptions {
  /** data-service: skip the service step */
  serviceId?: string | null;
  providerId?: string | null;
}

export function initialState(options: FlowOptions = {}): FlowState {
  return {
    step: 'loading',
    config: null,
    today: '1970-01-01',
    serviceId: options.serviceId ?? null,
    providerId: options.providerId ?? null,
    pickedProviderId: null,
    month: '1970-01',
    days: { status: 'loading' },
    day: null,
    slots: { status: 'loading' },
    seats: null,
    time: null,
    form: { name: '', email: '', phone: '', notes: '', custom: {}, repeat: '', every: '1', count: '4' },
    errors: {},
    notice: null,
    submitting: false,
    booking: null,
    checkoutUrl: null,
    manageUrl: null,
    stepChanges: 0,
  };
}

/** The chosen service, or null. */
export function chosenService(state: FlowState): WidgetService | null {
  return state.config?.services.find((service) => service.id === state.serviceId) ?? null;
}

/** The services the widget offers: with data-provider, only those that provider gives (docs/contract/widget.md). */
export function offeredServices(config: WidgetConfig, providerId: string | null): WidgetService[] {
  return providerId ? config.services.filter((service) => service.providerIds.includes(providerId)) : config.services;
}

/** The provider every availability and booking request names: data-provider's, else the visitor's pick; null: any available. */
export function requestedProvider(state: FlowState): string | null {
  return state.providerId ?? state.pickedProviderId;
}

/**
 * The people the provider step offers for a service, by name (the config's order): none when the widget is for one
 * provider (data-provider) or the service has only one, so no choice is shown.
 */
export function providerChoice(state: FlowState, serviceId: string | null = state.serviceId): WidgetProvider[] {
  const service = state.config?.services.find((one) => one.id === serviceId);
  if (!state.config || !service || state.providerId || service.providerIds.length < 2) return [];
  return state.config.providers.filter((provider) => service.providerIds.includes(provider.id));
}

/** The custom fields the chosen service's form shows, in order. */
export function fieldsFor(config: WidgetConfig, serviceId: string | null): WidgetCustomField[] {
  return config.customFields.filter((field) => field.serviceIds.length === 0 || (serviceId !== null && field.serviceIds.includes(serviceId)));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The errors of the details form, checked before anything is sent. */
export function validate(state: FlowState): FieldErrors {
  const errors: FieldErrors = {};
  const { form } = state;
  if (!form.name.trim()) errors.name = { id: 'required' };
  if (!form.email.trim()) errors.email = { id: 'required' };
  else if (!EMAIL.test(form.email.trim())) errors.email = { id: 'invalidEmail' };
  if (repeats(state) && !/^\d+$/.test(form.count.trim())) errors.count = { id: 'invalidNumber' };
  for (const field of state.config ? fieldsFor(state.config, state.serviceId) : []) {
    const value = form.custom[field.key];
    const text = typeof value === 'string' ? value.trim() : '';
    const name = `cf:${field.key}`;
    if (field.type === 'checkbox') {
      if (field.required && value !== true) errors[name] = { id: 'required' };
    } else if (!text) {
      if (field.required) errors[name] = { id: field.type === 'select' ? 'chooseOption' : 'required' };
    } else if (field.type === 'number' && !Number.isFinite(Number(text))) {
      errors[name] = { id: 'invalidNumber' };
    } else if (field.type === 'email' && !EMAIL.test(text)) {
      errors[name] = { id: 'invalidEmail' };
    }
  }
  return errors;
}

/** The visitor asked for a weekly series (only offered on a repeatable service). */
const repeats = (state: FlowState) => state.form.repeat === 'yes' && chosenService(state)?.repeatable === true;

/** The createBooking body for the current choice; the time goes as the exact instant with the workspace's offset. */
export function bookingRequest(state: FlowState, recaptchaToken?: string): WidgetBookingRequest {
  const config = state.config!;
  const { form } = state;
  const customFields: Record<string, string | number | boolean> = {};
  for (const field of fieldsFor(config, state.serviceId)) {
    const value = form.custom[field.key];
    if (field.type === 'checkbox') {
      if (value !== undefined) customFields[field.key] = value === true;
    } else if (typeof value === 'string' && value.trim()) {
      customFields[field.key] = field.type === 'number' ? Number(value.trim()) : value.trim();
    }
  }
  return {
    serviceId: state.serviceId!,
    ...(requestedProvider(state) ? { providerId: requestedProvider(state)! } : {}),
    email: form.email.trim(),
    name: form.name.trim(),
    ...(form.phone.trim() ? { phone: form.phone.trim() } : {}),
    ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
    date: zonedDateTime(state.day!, state.time!, config.workspace.timezone),
    ...(Object.keys(customFields).length > 0 ? { customFields } : {}),
    ...(recaptchaToken ? { recaptchaToken } : {}),
    ...(repeats(state) ? { repeat: { frequency: 'weekly' as const, interval: Number(form.every), count: Number(form.count.trim()) } } : {}),
  };
}

/** `/email` → email, `/customFields/allergies` → cf:allergies; null for a path no field shows. */
export function fieldOfPath(path: string): string | null {
  const custom = /^\/customFields\/(.+)$/.exec(path);
  if (custom) return `cf:${custom[1]}`;
  const plain = /^\/(name|email|phone|notes)$/.exec(path);
  return plain ? plain[1]! : null;
}

const moved = (state: FlowState, step: Step): FlowState => ({ ...state, step, stepChanges: state.stepChanges + 1 });

function startDay(state: FlowState, serviceId: string): FlowState {
  return { ...moved(state, 'day'), serviceId, month: monthOf(state.today), days: { status: 'loading' }, day: null, time: null, notice: null, errors: {} };
}

/** A service was chosen: the provider step when it offers a choice (the last pick kept if she gives it too), else the days. */
function afterService(state: FlowState, serviceId: string): FlowState {
  const choice = providerChoice(state, serviceId);
  if (choice.length === 0) return startDay({ ...state, pickedProviderId: null }, serviceId);
  const picked = choice.some((provider) => provider.id === state.pickedProviderId) ? state.pickedProviderId : null;
  return { ...moved(state, 'provider'), serviceId, pickedProviderId: picked, day: null, time: null, notice: null, errors: {} };
}

/** Where Back leads from a step, or null where it has no way back (a service list of one is never shown). */
export function previousStep(state: FlowState): Step | null {
  if (!state.config) return null;
  const serviceList = offeredServices(state.config, state.providerId).length > 1 ? 'service' : null;
  switch (state.step) {
    case 'provider':
      return serviceList;
    case 'day':
      return providerChoice(state).length > 0 ? 'provider' : serviceList;
    case 'time':
      return 'day';
    case 'details':
      return 'time';
    default:
      return null;
  }
}

/** Back to the first step with nothing chosen: a held booking dismissed, or a new one after the last. */
function startOver(state: FlowState): FlowState {
  return {
    ...moved(state, firstStep(state)),
    day: null,
    time: null,
    booking: null,
    checkoutUrl: null,
    manageUrl: null,
    notice: null,
    days: { status: 'loading' },
  };
}

/** Where a new booking starts once one is made or left to its hold: the service list, else the provider step, else the days. */
function firstStep(state: FlowState): Step {
  if (offeredServices(state.config!, state.providerId).length > 1) return 'service';
  return providerChoice(state).length > 0 ? 'provider' : 'day';
}

/** docs/contract/widget.md §6: taken → back to the times (reloaded); not allowed, network → a message; field errors by field. */
function afterFailure(base: FlowState, failure: BookingFailure): FlowState {
  switch (failure.kind) {
    case 'taken':
      return { ...moved(base, 'time'), time: null, slots: { status: 'loading' }, notice: { kind: 'taken' } };
    case 'forbidden':
      return { ...base, notice: { kind: 'forbidden' } };
    case 'network':
      return { ...base, notice: { kind: 'retry' } };
    case 'invalid': {
      const errors: FieldErrors = {};
      for (const detail of failure.details) {
        const field = fieldOfPath(detail.path);
        if (field && !errors[field]) errors[field] = { text: detail.message };
      }
      return Object.keys(errors).length > 0
        ? { ...base, errors, notice: { kind: 'fixFields' } }
        : { ...base, notice: { kind: 'server', text: failure.message } };
    }
  }
}

export function next(state: FlowState, event: FlowEvent): FlowState {
  switch (event.type) {
    case 'configLoaded': {
      // A data-provider the workspace does not list (a typo, a provider since deactivated) is dropped: the site
      // keeps taking bookings with anyone rather than failing at the day step.
      const providerId = state.providerId && event.config.providers.some((provider) => provider.id === state.providerId) ? state.providerId : null;
      const base: FlowState = { ...state, providerId, config: event.config, today: event.today, month: monthOf(event.today) };
      if (!event.config.booking.allowed) return { ...moved(base, 'unavailable'), notice: { kind: 'forbidden' } };
      const offered = offeredServices(event.config, providerId);
      const preset = offered.find((service) => service.id === state.serviceId);
      if (preset) return afterService(base, preset.id);
      const only = offered.length === 1 ? offered[0] : undefined;
      return only ? afterService(base, only.id) : { ...moved(base, 'service'), serviceId: null };
    }
    case 'configFailed':
      return moved(state, 'failed');
    case 'reload':
      return state.step === 'failed' ? moved(state, 'loading') : state;
    case 'reloadTimes':
      return state.step === 'time' ? { ...state, slots: { status: 'loading' } } : state;
    case 'retryLoad':
      if (state.step === 'day' && state.days.status === 'error') return { ...state, days: { status: 'loading' } };
      if (state.step === 'time' && state.slots.status === 'error') return { ...state, slots: { status: 'loading' } };
      return state;
    case 'chooseService':
      // before the config arrives (SvcWidget.open({ serviceId }) right after load): remember it
      if (state.step === 'loading') return { ...state, serviceId: event.serviceId };
      if (!state.config || !offeredServices(state.config, state.providerId).some((service) => service.id === event.serviceId)) return state;
      if (!state.config.booking.allowed) return state;
      return afterService(state, event.serviceId);
    case 'chooseProvider':
      if (state.step !== 'provider') return state;
      if (event.providerId !== null && !providerChoice(state).some((provider) => provider.id === event.providerId)) return state;
      return startDay({ ...state, pickedProviderId: event.providerId }, state.serviceId!);
    case 'showMonth':
      if (event.month < monthOf(state.today) || event.month === state.month) return state;
      return { ...state, month: event.month, days: { status: 'loading' } };
    case 'daysLoaded':
      if (event.serviceId !== state.serviceId || event.month !== state.month || !sameProvider(state, event.providerId)) return state;
      return { ...state, days: { status: 'ready', value: event.days } };
    case 'daysFailed':
      if (event.serviceId !== state.serviceId || event.month !== state.month || !sameProvider(state, event.providerId)) return state;
      return { ...state, days: { status: 'error' } };
    case 'chooseDay':
      if (state.days.status !== 'ready' || !state.days.value.includes(event.day)) return state;
      return { ...moved(state, 'time'), day: event.day, slots: { status: 'loading' }, time: null, notice: null };
    case 'slotsLoaded':
      if (event.day !== state.day || !sameProvider(state, event.providerId)) return state;
      return { ...state, slots: { status: 'ready', value: event.slots }, seats: event.seats ?? null };
    case 'slotsFailed':
      if (event.day !== state.day || !sameProvider(state, event.providerId)) return state;
      return { ...state, slots: { status: 'error' } };
    case 'chooseTime':
      if (state.slots.status !== 'ready' || !state.slots.value.includes(event.time)) return state;
      return { ...moved(state, 'details'), time: event.time, notice: null };
    case 'edit': {
      const form = event.field.startsWith('cf:')
        ? { ...state.form, custom: { ...state.form.custom, [event.field.slice(3)]: event.value } }
        : { ...state.form, [event.field]: String(event.value) };
      const { [event.field]: _fixed, ...errors } = state.errors;
      // "Please check the highlighted fields" goes with the last highlighted field
      const notice = state.notice?.kind === 'fixFields' && Object.keys(errors).length === 0 ? null : state.notice;
      return { ...state, form, errors, notice };
    }
    case 'prefill': {
      const { values } = event;
      const custom = { ...state.form.custom };
      for (const [key, value] of Object.entries(values.customFields ?? {})) custom[key] = typeof value === 'boolean' ? value : String(value);
      const form: FormValues = {
        ...state.form,
        ...(values.name !== undefined ? { name: String(values.name) } : {}),
        ...(values.email !== undefined ? { email: String(values.email) } : {}),
        ...(values.phone !== undefined ? { phone: String(values.phone) } : {}),
        custom,
      };
      return { ...state, form };
    }
    case 'submit': {
      if (state.step !== 'details' || state.submitting) return state;
      const errors = validate(state);
      if (Object.keys(errors).length > 0) return { ...state, errors, notice: { kind: 'fixFields' } };
      return { ...state, errors: {}, notice: null, submitting: true };
    }
    case 'captchaMissing':
      return { ...state, submitting: false, notice: { kind: 'captcha' } };
    case 'booked':
      return {
        ...moved(state, event.checkoutUrl ? 'redirecting' : 'done'),
        submitting: false,
        booking: event.booking,
        checkoutUrl: event.checkoutUrl,
        manageUrl: event.manageUrl ?? null,
        notice: null,
      };
    case 'bookingFailed':
      return afterFailure({ ...state, submitting: false }, event.failure);
    case 'back': {
      const target = previousStep(state);
      if (!target || state.submitting) return state;
      return { ...moved(state, target), notice: null, ...(target === 'time' ? { slots: { status: 'loading' as const } } : {}) };
    }
    case 'resume':
      if (state.step !== 'service' && state.step !== 'provider' && state.step !== 'day') return state;
      return {
        ...moved(state, 'redirecting'),
        serviceId: event.booking.serviceId,
        booking: event.booking,
        checkoutUrl: event.checkoutUrl,
        manageUrl: event.manageUrl,
        notice: null,
      };
    case 'dismissHeld':
      if (state.step !== 'redirecting') return state;
      return startOver(state);
    case 'restart':
      if (state.step !== 'done') return state;
      return startOver(state);
  }
}

/** An answer for another provider than the one now asked for (the visitor went back and picked again) is dropped; undefined: not said. */
const sameProvider = (state: FlowState, providerId: string | null | undefined) => providerId === undefined || providerId === requestedProvider(state);

/** What the flow must fetch in a state, as a key: flow.ts fetches when it changes. */
export function daysRequest(state: FlowState): { serviceId: string; month: string; providerId: string | null } | null {
  return state.step === 'day' && state.serviceId && state.days.status === 'loading'
    ? { serviceId: state.serviceId, month: state.month, providerId: requestedProvider(state) }
    : null;
}

export function slotsRequest(state: FlowState): { serviceId: string; day: string; providerId: string | null } | null {
  return state.step === 'time' && state.serviceId && state.day && state.slots.status === 'loading'
    ? { serviceId: state.serviceId, day: state.day, providerId: requestedProvider(state) }
    : null;
}

/** The months the calendar may show: from the workspace's today on. */
export function canShowPreviousMonth(state: FlowState): boolean {
  return state.month > monthOf(state.today);
}
