import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { BookingFlow } from './flow.ts';
import type { Strings } from './i18n.ts';

/** What every part of one widget reads: its flow, its words, and where it runs. */
export interface WidgetContext {
  flow: BookingFlow;
  strings: Strings;
  locale: string;
  visitorZone: string;
  /** the host of svc's address (the widget script's), as in `https://svc.example.com:8443` -> `svc.example.com:8443` */
  svcHost: string;
  /** the host element of the captcha, slotted into the form */
  mountCaptcha(): void;
}

const Context = createContext<WidgetContext | null>(null);

/** Gives the widget's components their WidgetContext; main.tsx renders one around each widget. */
export const WidgetProvider = Context.Provider;

/** The WidgetContext of the widget this component is part of. */
export function useWidget(): WidgetContext {
  const widget = useContext(Context);
  if (!widget) throw new Error('a widget component was rendered outside its WidgetProvider');
  return widget;
}
