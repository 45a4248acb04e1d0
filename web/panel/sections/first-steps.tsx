/*
 * The dashboard's first steps (docs/contract/first-day.md §6): what a new workspace still lacks before customers
 * can book (hours, a service someone offers, widget domains, where the owner's mails go), and the booking page
 * address and the embed snippet to copy. It is shown until every step is done.
 */
import { call, type WeeklyHours } from '../api/client.ts';
import type { Route } from '../route.ts';
import { Loaded, useLoad, type SectionProps } from './common.tsx';
import { CopyValue } from './copy.tsx';
import { loadCatalogue, unbookableReason } from './services.tsx';

interface Progress {
  hours: boolean;
  service: boolean;
  domains: boolean;
  mail: boolean;
}

const hasHours = (weekly: WeeklyHours) => Object.values(weekly).some((ranges) => ranges.length > 0);

export function FirstSteps({ client, workspace, t, navigate }: SectionProps) {
  const slug = workspace.slug;
  const { state, reload } = useLoad<Progress>(
    async () => {
      const [schedule, catalogue, domains] = await Promise.all([
        call(client.GET('/workspaces/{slug}/schedule', { params: { path: { slug } } })),
        loadCatalogue(client, slug),
        call(client.GET('/workspaces/{slug}/domains', { params: { path: { slug } } })),
      ]);
      return {
        hours: hasHours(schedule.schedule.weekly),
        service: catalogue.services.some((service) => service.active && unbookableReason(service, catalogue, t) === null),
        domains: domains.domains.length > 0,
        mail: !!workspace.notificationEmail,
      };
    },
    [slug, workspace.notificationEmail],
    t,
  );
  const page = `${location.origin}/book/${encodeURIComponent(slug)}`;
  const snippet = `<script src="${location.origin}/svc-widget.min.js" data-slug="${slug}" async></script>`;
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {(progress) =>
        Object.values(progress).every(Boolean) ? null : (
          <section class="card first-steps" aria-labelledby="first-steps-title">
            <h3 id="first-steps-title">{t.firstSteps}</h3>
            <p class="muted">{t.firstStepsHint}</p>
            <ol>
              <Step done={progress.hours} title={t.stepHours} to={{ section: 'hours', bookingId: null }} {...{ t, navigate }} />
              <Step done={progress.service} title={t.stepService} to={{ section: 'services', bookingId: null }} {...{ t, navigate }} />
              <li>
                <strong>{t.stepBookingPage}</strong>
                <p class="muted">{t.stepBookingPageHint}</p>
                <CopyValue value={page} label={t.copyAddress} t={t} />
              </li>
              <li>
                <strong>{t.stepEmbed}</strong>
                <p class="muted">{t.stepEmbedHint}</p>
                <CopyValue value={snippet} label={t.copySnippet} t={t} block />
              </li>
              <Step done={progress.domains} title={t.stepDomains} to={{ section: 'settings', bookingId: null }} {...{ t, navigate }} />
              <Step done={progress.mail} title={t.stepMail} to={{ section: 'settings', bookingId: null }} {...{ t, navigate }} />
            </ol>
          </section>
        )
      }
    </Loaded>
  );
}

function Step({ done, title, to, t, navigate }: { done: boolean; title: string; to: Route } & Pick<SectionProps, 't' | 'navigate'>) {
  return (
    <li class={done ? 'step is-done' : 'step'} data-done={done ? 'true' : 'false'}>
      <span class="step-mark" aria-hidden="true">
        {done ? '✓' : '○'}
      </span>
      <strong class="step-title">{title}</strong> <span class="sr-only">({done ? t.stepDone : t.stepOpen})</span>
      <button type="button" class="small" aria-label={`${t.open}: ${title}`} onClick={() => navigate(to)}>
        {t.open}
      </button>
    </li>
  );
}
