import type { WidgetService } from '../../../src/core/widget-protocol.ts';
import { useWidget } from '../context.ts';
import { offeredServices, type FlowState } from '../machine.ts';
import { money, paymentTerms } from './wording.ts';

function ServiceMeta({ service, onlinePayment }: { service: WidgetService; onlinePayment: boolean }) {
  const { strings, locale } = useWidget();
  const price = service.price > 0 ? money(service.price, service.currency, locale) : strings.free;
  const terms = paymentTerms(service, onlinePayment, strings, locale);
  return (
    <>
      <span class="choice-top">
        <span>{service.name}</span>
        <span class="price">{price}</span>
      </span>
      <span class="choice-meta">
        {strings.minutes(service.duration)}
        {terms && ` · ${terms}`}
      </span>
    </>
  );
}

/** The first step: the services offered (by the provider the widget is for, when it is for one). */
export function ServiceStep({ state }: { state: FlowState }) {
  const { flow } = useWidget();
  return (
    <ul class="list">
      {offeredServices(state.config!, state.providerId).map((service) => (
        <li key={service.id}>
          <button type="button" class="choice" onClick={() => flow.dispatch({ type: 'chooseService', serviceId: service.id })}>
            <ServiceMeta service={service} onlinePayment={state.config!.booking.onlinePayment} />
            {service.description && <span class="choice-desc">{service.description}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
