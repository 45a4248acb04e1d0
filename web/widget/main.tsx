/*
 * The booking widget's loader (docs/contract/widget.md): every `<script src=".../svc-widget.min.js" data-slug=…>`
 * on the page becomes one independent widget in an open shadow root on a `<svc-booking>` element. It adds one
 * global, `window.SvcWidget`, and no global CSS; failures are reported on the console, never thrown at the page.
 */
import { signal, type Signal } from '@preact/signals';
import { render } from 'preact';
import { httpApi } from './api.ts';
import { Captcha } from './captcha.ts';
import { WidgetProvider, type WidgetContext } from './context.ts';
import { BookingFlow } from './flow.ts';
import { stringsFor, widgetLocale } from './i18n.ts';
import type { Prefill } from './machine.ts';
import type { WidgetBooking } from '../../src/core/widget-protocol.ts';
import { BASE_CSS, sheet, themeCss } from './styles.ts';
import { FloatingWidget, InlineWidget } from './shell.tsx';
import { visitorZone } from './time.ts';

type Position = 'bottom-right' | 'bottom-left' | 'inline';
/** `auto`: the host page's colours; `system`: the visitor's system preference; or fixed. */
type Theme = 'auto' | 'system' | 'light' | 'dark';

interface Mounted {
  slug: string;
  position: Position;
  element: HTMLElement;
  flow: BookingFlow;
  open: Signal<boolean>;
}

export interface SvcWidgetApi {
  /** opens the first floating widget (or scrolls to the first inline one), at `serviceId` when given */
  open(options?: { serviceId?: string }): void;
  /** closes every open widget dialog */
  close(): void;
  /** fills the details form of every widget */
  prefill(values: Prefill): void;
  /** mounts the widget tags not mounted yet (each copy of the script calls it) */
  scan(): void;
}

const SCRIPT_NAME = /\/svc-widget\.min\.js(?:[?#]|$)/;
const TAG = 'svc-booking';

const report = (message: string, error?: unknown) => console.warn(`[svc-widget] ${message}`, error ?? '');

const emit = (name: string, detail: unknown) => window.dispatchEvent(new CustomEvent(name, { detail }));

const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The relative luminance of a computed `rgb(…)`/`rgba(…)` colour, or null when it is (nearly) transparent. */
function backgroundLuminance(color: string): number | null {
  const channels = color.match(/[\d.]+/g)?.map(Number);
  if (!channels || channels.length < 3 || (channels.length > 3 && channels[3]! < 0.5)) return null;
  const [r, g, b] = channels.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Whether the host page around `element` is dark: the first opaque background from the element up to <html>
 * decides; with none, the page's `color-scheme` (a page that allows dark and runs on a dark system is dark).
 */
function hostIsDark(element: HTMLElement): boolean {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const luminance = backgroundLuminance(getComputedStyle(node).backgroundColor);
    if (luminance !== null) return luminance < 0.2;
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  return /\bdark\b/.test(scheme) && (!/\blight\b/.test(scheme) || window.matchMedia(DARK_QUERY).matches);
}

/** light or dark as the widget shows it now. */
function resolvedTheme(theme: Theme, element: HTMLElement): 'light' | 'dark' {
  if (theme === 'light' || theme === 'dark') return theme;
  if (theme === 'system') return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
  return hostIsDark(element) ? 'dark' : 'light';
}

/** How long a booking left for the checkout is offered again on return (the longest payment hold svc is set up with). */
const HELD_FOR_MS = 60 * 60_000;

interface Held {
  booking: WidgetBooking;
  checkoutUrl: string;
  manageUrl: string | null;
  at: number;
}

/**
 * A booking sent to the checkout holds its time until it is paid or its hold ends. Back from the checkout, the
 * widget offers it again (continue to pay, or release it) instead of starting afresh while the time stays held.
 * Kept per tab (sessionStorage) and per workspace; storage a page forbids only costs the offer.
 */
const heldStore = (slug: string) => {
  const key = `svc-widget:held:${slug}`;
  return {
    read(): Held | null {
      try {
        const held = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Held | null;
        return held && Date.now() - held.at < HELD_FOR_MS && Date.parse(held.booking.startTime) > Date.now() ? held : null;
      } catch {
        return null;
      }
    },
    write(held: Held | null) {
      try {
        if (held) sessionStorage.setItem(key, JSON.stringify(held));
        else sessionStorage.removeItem(key);
      } catch {
        // storage refused (privacy settings): nothing to offer later
      }
    },
  };
};

function whenBodyReady(then: () => void) {
  if (document.body) then();
  else document.addEventListener('DOMContentLoaded', then, { once: true });
}

function mount(script: HTMLScriptElement, registry: Mounted[]) {
  const data = script.dataset;
  const slug = data.slug?.trim();
  if (!slug) {
    report('a widget script tag needs data-slug="<workspace slug>"');
    return;
  }
  const position = oneOf(data.position, ['bottom-right', 'bottom-left', 'inline'] as const, 'bottom-right');
  const theme = oneOf(data.theme, ['auto', 'system', 'light', 'dark'] as const, 'auto');
  const element = document.createElement(TAG);
  element.setAttribute('position', position);
  // `auto` is resolved once the element is on the page (below), and again when the system scheme changes
  element.setAttribute('theme', theme === 'auto' ? 'light' : theme);
  element.setAttribute('data-slug', slug);
  const shadow = element.attachShadow({ mode: 'open' });
  const themeSheet = sheet(themeCss(null));
  shadow.adoptedStyleSheets = [sheet(BASE_CSS), themeSheet];

  const open = signal(false);
  let captcha: Captcha | null = null;
  const svc = new URL(script.src);
  const held = heldStore(slug);
  const flow = new BookingFlow(
    httpApi(svc.origin, slug),
    {
      booked: (booking, checkoutUrl, manageUrl) => {
        captcha?.reset();
        if (checkoutUrl) held.write({ booking, checkoutUrl, manageUrl, at: Date.now() });
        emit('svc:booking-created', { booking, checkoutUrl });
      },
      redirect: (url) => window.location.assign(url),
      // The server verifies the token before it checks the slot, so even a refused booking spent it.
      refused: () => captcha?.reset(),
      captchaToken: () => captcha?.current(),
    },
    { serviceId: data.service ?? null, providerId: data.provider ?? null },
  );
  const entry: Mounted = { slug, position, element, flow, open };
  registry.push(entry);

  const setOpen = (value: boolean) => {
    if (open.value === value) return;
    open.value = value;
    emit(value ? 'svc:widget-open' : 'svc:widget-close', { slug });
  };

  function Root() {
    const state = flow.state.value;
    // until the config arrives, the host page's language stands in for the workspace's (the launcher shows at once)
    const language = data.language ?? state.config?.workspace.language ?? (document.documentElement.lang || 'en');
    const ctx: WidgetContext = {
      flow,
      strings: stringsFor(language),
      locale: widgetLocale(language, data.language ? null : state.config?.workspace.locale),
      visitorZone: visitorZone(),
      svcHost: svc.host,
      mountCaptcha() {
        const config = flow.current.config?.booking.captcha;
        if (!config || captcha) return;
        captcha = new Captcha(config.provider, config.siteKey);
        const holder = document.createElement('div');
        holder.slot = 'captcha';
        element.appendChild(holder);
        captcha.mount(holder, resolvedTheme(theme, element)).catch((error) => report('the captcha could not be loaded', error));
      },
    };
    return (
      <WidgetProvider value={ctx}>
        {position === 'inline' ? (
          <InlineWidget />
        ) : (
          <FloatingWidget open={open} label={data.label ?? ctx.strings.launcher} onOpen={() => setOpen(true)} onClose={() => setOpen(false)} />
        )}
      </WidgetProvider>
    );
  }

  let step = flow.current.step;
  flow.state.subscribe((state) => {
    if (state.config) themeSheet.replaceSync(themeCss(state.config.workspace.primaryColor));
    // the visitor left the held booking (to book afresh): it is not offered again
    if (step === 'redirecting' && state.step !== 'redirecting') held.write(null);
    step = state.step;
  });
  const place = () => {
    const target = data.target ? document.querySelector(data.target) : null;
    if (data.target && !target) report(`data-target ${data.target} matches no element; the widget goes after its script tag`);
    if (position !== 'inline') document.body.appendChild(element);
    else if (target) target.appendChild(element);
    else if (script.parentElement && script.parentElement !== document.head) script.after(element);
    else document.body.appendChild(element);
    if (theme === 'auto') {
      const follow = () => element.setAttribute('theme', resolvedTheme(theme, element));
      follow();
      window.matchMedia(DARK_QUERY).addEventListener('change', follow);
      // an async script may run before the page's stylesheets have loaded: look at the page again once they have
      if (document.readyState !== 'complete') window.addEventListener('load', follow, { once: true });
    }
    render(<Root />, shadow);
  };
  if (position === 'inline' && !data.target && script.parentElement && script.parentElement !== document.head) place();
  else whenBodyReady(place);
  void flow.start().then(() => {
    const offer = held.read();
    if (offer) flow.dispatch({ type: 'resume', booking: offer.booking, checkoutUrl: offer.checkoutUrl, manageUrl: offer.manageUrl });
  });
}

function install(): SvcWidgetApi {
  const registry: Mounted[] = [];
  const mounted = new WeakSet<HTMLScriptElement>();
  const api: SvcWidgetApi = {
    open(options = {}) {
      const entry = registry.find((candidate) => candidate.position !== 'inline') ?? registry[0];
      if (!entry) return report('SvcWidget.open: no widget on this page');
      if (options.serviceId) entry.flow.dispatch({ type: 'chooseService', serviceId: options.serviceId });
      if (entry.position === 'inline') {
        entry.element.scrollIntoView({ block: 'start' });
        return;
      }
      if (!entry.open.value) {
        entry.open.value = true;
        emit('svc:widget-open', { slug: entry.slug });
      }
    },
    close() {
      for (const entry of registry) {
        if (!entry.open.value) continue;
        entry.open.value = false;
        emit('svc:widget-close', { slug: entry.slug });
      }
    },
    prefill(values) {
      if (!values || typeof values !== 'object') return report('SvcWidget.prefill takes an object such as { name, email }');
      for (const entry of registry) entry.flow.dispatch({ type: 'prefill', values });
    },
    scan() {
      const scripts = document.querySelectorAll<HTMLScriptElement>('script[data-slug][src]');
      for (const script of scripts) {
        if (mounted.has(script) || !SCRIPT_NAME.test(script.src)) continue;
        mounted.add(script);
        try {
          mount(script, registry);
        } catch (error) {
          report('a widget could not start', error);
        }
      }
    },
  };
  if (!customElements.get(TAG)) customElements.define(TAG, class extends HTMLElement {});
  return api;
}

const host = window as unknown as { SvcWidget?: SvcWidgetApi };
try {
  host.SvcWidget ??= install();
  host.SvcWidget.scan();
} catch (error) {
  report('the widget could not start', error);
}
