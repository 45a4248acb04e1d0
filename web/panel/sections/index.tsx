/* The panel's sections by name (docs/contract/panel.md); the shell renders the one its navigation shows. */
import type { Section } from '../../protocol/panel-protocol.ts';
import { Bookings } from './bookings/index.tsx';
import { Calendar } from './calendar.tsx';
import type { SectionProps } from './common.tsx';
import { Dashboard } from './dashboard.tsx';
import { Fields } from './fields.tsx';
import { Hours } from './hours.tsx';
import { Providers } from './providers.tsx';
import { Services } from './services.tsx';
import { Settings } from './settings/index.tsx';

export type { SectionNotice, SectionProps } from './common.tsx';

const VIEWS: Record<Section, (props: SectionProps) => preact.JSX.Element> = {
  dashboard: Dashboard,
  bookings: Bookings,
  calendar: Calendar,
  services: Services,
  providers: Providers,
  hours: Hours,
  fields: Fields,
  settings: Settings,
};

/** The section's content; keyed by section so each starts fresh (and a full-screen view ends its focus mode). */
export function SectionView({ section, ...props }: SectionProps & { section: Section }) {
  const View = VIEWS[section];
  return <View key={section} {...props} />;
}
