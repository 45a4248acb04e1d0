import type { AppDeps } from '../../platform/app-deps.ts';
import { toMajor } from '../../core/money.ts';
import type { ServiceRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { toCustomFieldJson, workspaceLocale } from './service.ts';
import { isWidgetOriginAllowed } from '../../platform/access/domains.ts';
import { DEMO_SLUG } from './demo-workspace.ts';
import type { WidgetConfig, WidgetCustomField } from '../../core/widget-protocol.ts';

/** The currency of a workspace without services: its widget shows no price anyway. */
export const FALLBACK_CURRENCY = 'EUR';

/** What a service shows wherever it is offered (the widget's services, the API's Service): what it is, how long, at what price. */
export const serviceSummary = (service: ServiceRecord) => ({
  id: service.id,
  name: service.name,
  description: service.description,
  duration: service.duration,
  price: toMajor(service.priceMinor, service.currency),
  currency: service.currency,
});

/** How long browsers and proxies may keep a config answer, seconds (docs/contract/widget.md). */
export const CONFIG_MAX_AGE_SECONDS = 30;

/**
 * getWidgetConfig (docs/contract/widget.md): everything the widget needs before the visitor acts, in one answer.
 * `origin` is the request's Origin header: `booking.allowed` says whether a keyless booking from that page would
 * pass the domain check (true without one).
 */
export async function widgetConfig(
  deps: Pick<AppDeps, 'storage' | 'config' | 'payments'>,
  workspace: WorkspaceRecord,
  origin: string | null,
): Promise<WidgetConfig> {
  const [fields, services, providers] = await Promise.all([
    deps.storage.listCustomFields(workspace.id),
    deps.storage.listServices(workspace.id, { activeOnly: true }),
    deps.storage.listProviders(workspace.id),
  ]);
  const activeProviders = new Map(providers.filter((provider) => provider.active).map((provider) => [provider.id, provider]));
  const offered = new Set(services.flatMap((service) => service.providerIds.filter((id) => activeProviders.has(id))));
  const { SVC_CAPTCHA_PROVIDER: captchaProvider, SVC_CAPTCHA_SITE_KEY: siteKey } = deps.config;
  return {
    success: true,
    workspace: {
      id: workspace.id,
      name: workspace.name,
      slug: workspace.slug,
      primaryColor: workspace.primaryColor,
      timezone: workspace.timezone,
      language: workspace.language,
      locale: workspaceLocale(workspace),
      timeFormat: workspace.timeFormat,
      currency: services[0]?.currency ?? FALLBACK_CURRENCY,
      // The column arrives with the admin panel; until then no workspace has a logo.
      logoUrl: (workspace as WorkspaceRecord & { logoUrl?: string | null }).logoUrl ?? null,
    },
    customFields: fields.map((field): WidgetCustomField => toCustomFieldJson(field)),
    services: services.map((service) => ({
      ...serviceSummary(service),
      depositAmount: service.depositMinor === null ? null : toMajor(service.depositMinor, service.currency),
      providerIds: service.providerIds.filter((id) => activeProviders.has(id)),
      repeatable: service.repeatable ?? false,
    })),
    providers: [...offered]
      .map((id) => activeProviders.get(id)!)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ id, name }) => ({ id, name })),
    booking: {
      allowed: origin === null || workspace.slug === DEMO_SLUG || isWidgetOriginAllowed(origin, workspace, deps.config.SVC_PUBLIC_URL),
      captcha: captchaProvider && siteKey ? { provider: captchaProvider, siteKey } : null,
      onlinePayment: deps.payments.name !== 'none',
    },
  };
}
