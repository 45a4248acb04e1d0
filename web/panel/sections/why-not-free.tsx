/*
 * "Why not free?": the reasons GET …/availability/explain gives for a start time, in the panel's words
 * (docs/contract/calendars.md §11, §12). A connected calendar is named by its name, never by an event's title.
 * The calendar screen asks it of a time of its week; a manual booking refused with SLOT_UNAVAILABLE of that time.
 */
import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { PanelClient, Provider, Schemas, Service, Workspace } from '../api/client.ts';
import { call } from '../api/client.ts';
import { longDayOf, wallTimeOf } from '../format.ts';
import type { Strings } from '../i18n.ts';
import { messageOf, useId } from './common.tsx';

type Reason = Schemas['AvailabilityReason'];
type Explained = Schemas['AvailabilityExplanation']['times'][number];

/** One reason in words: a calendar busy time by the calendar's name. */
export function reasonWords(reason: Reason, t: Strings): string {
  return reason.code === 'CALENDAR_BUSY' && reason.calendarName ? t.busyInCalendar(reason.calendarName) : t.whyReasons[reason.code];
}

/**
 * The day's explanation of `time` (HH:mm) for each provider: that start time where the service's grid has it, else
 * the last start before it (a time between two starts is held by what holds the start before it).
 */
export async function explainTime(
  client: PanelClient,
  slug: string,
  query: { serviceId: string; date: string; providerId?: string },
  time: string,
): Promise<Explained[]> {
  const answer = await call(client.GET('/workspaces/{slug}/availability/explain', { params: { path: { slug }, query } }));
  const byProvider = new Map<string, Explained>();
  for (const entry of answer.times) if (entry.time <= time) byProvider.set(entry.providerId, entry);
  return [...byProvider.values()];
}

/** What the calendar screen shows after asking: the time asked of, the service, and its explanation. */
export type WhyAnswer =
  | { phase: 'asking' }
  | { phase: 'failed'; message: string }
  | { phase: 'ready'; day: string; asked: string; serviceName: string; entry: Explained | null };

/** The calendar screen's "Why not free?" of one provider: what is asked, and the answer. */
export function useWhyNotFree(client: PanelClient, slug: string, t: Strings) {
  const day = useSignal('');
  const time = useSignal('');
  const serviceId = useSignal('');
  const answer = useSignal<WhyAnswer | null>(null);
  const ticket = useRef(0);
  const ask = async (provider: Provider, service: Service | undefined) => {
    if (!service || !day.value || !/^\d{2}:\d{2}$/.test(time.value)) return;
    const mine = ++ticket.current;
    answer.value = { phase: 'asking' };
    try {
      const [entry] = await explainTime(client, slug, { serviceId: service.id, date: day.value, providerId: provider.id }, time.value);
      if (mine === ticket.current) answer.value = { phase: 'ready', day: day.value, asked: time.value, serviceName: service.name, entry: entry ?? null };
    } catch (error) {
      if (mine === ticket.current) answer.value = { phase: 'failed', message: messageOf(error, t) };
    }
  };
  return { day, time, serviceId, answer, ask };
}

/**
 * The form of "Why not free?" under the week (the keyboard's way; a click on an empty time of the week fills it
 * and asks), and the answer in words.
 */
export function WhyNotFree({
  why,
  workspace,
  t,
  days,
  provider,
  services,
}: {
  why: ReturnType<typeof useWhyNotFree>;
  workspace: Workspace;
  t: Strings;
  days: string[];
  provider: Provider;
  /** the active services the provider offers */
  services: Service[];
}) {
  const serviceSelect = useId('why-service');
  const daySelect = useId('why-day');
  const timeInput = useId('why-time');
  const service = services.find((candidate) => candidate.id === why.serviceId.value) ?? services[0];
  const answer = why.answer.value;
  const submit = (event: Event) => {
    event.preventDefault();
    void why.ask(provider, service);
  };
  return (
    <section class="card why-not-free" aria-labelledby="why-title">
      <h3 id="why-title">{t.whyNotFree}</h3>
      {services.length === 0 ? (
        <p class="muted">{t.whyNoService}</p>
      ) : (
        <form class="inline-form" onSubmit={submit} noValidate>
          <p class="muted">{t.whyHint}</p>
          <div class="grid">
            <div class="field">
              <label for={serviceSelect}>{t.service}</label>
              <select id={serviceSelect} value={service?.id} onChange={(event) => (why.serviceId.value = event.currentTarget.value)}>
                {services.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={daySelect}>{t.newDay}</label>
              <select id={daySelect} value={why.day.value} onChange={(event) => (why.day.value = event.currentTarget.value)}>
                {days.map((day) => (
                  <option key={day} value={day}>
                    {longDayOf(workspace, day)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={timeInput}>{t.whyTime}</label>
              <input id={timeInput} type="time" step={300} value={why.time.value} onInput={(event) => (why.time.value = event.currentTarget.value)} required />
            </div>
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={answer?.phase === 'asking'}>
              {t.whyAsk}
            </button>
          </div>
        </form>
      )}
      <div class="why-answer" aria-live="polite">
        {answer?.phase === 'asking' && <p class="muted">{t.loading}</p>}
        {answer?.phase === 'failed' && <p class="problem">{answer.message}</p>}
        {answer?.phase === 'ready' && (
          <>
            <p>
              <strong>
                {longDayOf(workspace, answer.day)}, {wallTimeOf(workspace, answer.entry?.time ?? answer.asked)}
              </strong>{' '}
              · {provider.name} · {answer.serviceName}
            </p>
            {!answer.entry ? (
              <p>{t.whyNotOnGrid}</p>
            ) : answer.entry.free ? (
              <p>{t.whyFree}</p>
            ) : (
              <ul>
                {answer.entry.reasons.map((reason, index) => (
                  <li key={`${reason.code}-${index}`}>{reasonWords(reason, t)}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}
