import { call, type PanelClient, type Provider, type Service } from '../../api/client.ts';
import type { Strings } from '../../i18n.ts';
import { useLoad } from '../common.tsx';

/** What the bookings screens name and offer: the services, the providers, and the custom fields' labels. */
export interface Catalogue {
  services: Service[];
  providers: Provider[];
  /** the custom fields' labels by key, for a booking's answers */
  labels: Record<string, string>;
}

/** Loads the workspace's catalogue (again when the workspace changes). */
export function useCatalogue(client: PanelClient, slug: string, t: Strings) {
  return useLoad<Catalogue>(
    async () => {
      const [services, providers, fields] = await Promise.all([
        call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/custom-fields', { params: { path: { slug } } })),
      ]);
      const labels = Object.fromEntries(fields.customFields.map((field) => [field.key, field.label]));
      return { services: services.services, providers: providers.providers, labels };
    },
    [slug],
    t,
  );
}
