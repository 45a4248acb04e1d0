import { useEffect, useMemo } from 'preact/hooks';
import { useWidget } from '../context.ts';
import { bookingIcs } from '../ics.ts';
import { chosenService, type FlowState } from '../machine.ts';
import { dayIn, formatWallTime } from '../time.ts';
import { Icon, ICONS } from './parts.tsx';
import { longDay, visitorTime } from './wording.ts';

/** The booking made: what, when, with whom, an .ics to add it to a calendar, and a way to book another. */
export function DoneStep({ state }: { state: FlowState }) {
  const widget = useWidget();
  const { flow, strings, locale } = widget;
  const booking = state.booking!;
  const workspace = state.config!.workspace;
  const service = chosenService(state);
  const serviceName = booking.serviceName ?? service?.name ?? '';
  const icsUrl = useMemo(
    () =>
      URL.createObjectURL(
        new Blob(
          [
            bookingIcs(booking, {
              workspaceName: workspace.name,
              serviceName,
              providerName: booking.providerName,
              svcHost: widget.svcHost,
              now: new Date(),
            }),
          ],
          { type: 'text/calendar' },
        ),
      ),
    [booking.id],
  );
  useEffect(() => () => URL.revokeObjectURL(icsUrl), [icsUrl]);
  const day = dayIn(workspace.timezone, Date.parse(booking.startTime));
  const time = formatWallTime(state.time!, workspace.timeFormat, locale);
  const other = visitorTime({ ...state, day }, widget);
  const confirmed = booking.status === 'CONFIRMED';
  return (
    <>
      {/* only a confirmed booking gets the tick; a pending one waits (for the business, or for its payment) */}
      {confirmed ? (
        <span class="done-mark">
          <Icon path={ICONS.check} />
        </span>
      ) : (
        <span class="done-mark pending">
          <Icon path={ICONS.clock} />
        </span>
      )}
      <dl>
        <dt>{strings.summaryService}</dt>
        <dd>{serviceName}</dd>
        <dt>{strings.summaryDay}</dt>
        <dd>{longDay(day, locale)}</dd>
        <dt>{strings.summaryTime}</dt>
        <dd>{time}</dd>
        {booking.providerName && (
          <>
            <dt>{strings.summaryProvider}</dt>
            <dd>{booking.providerName}</dd>
          </>
        )}
        {!confirmed && (
          <>
            <dt>{strings.summaryStatus}</dt>
            <dd>{strings.notConfirmedYet}</dd>
          </>
        )}
      </dl>
      <p class="note">{strings.timesIn(workspace.timezone)}</p>
      {other && <p class="note">{other}</p>}
      <p class="note">{booking.status === 'CONFIRMED' ? strings.confirmedNote(booking.customerEmail) : strings.pendingNote}</p>
      {state.manageUrl && <p class="note">{strings.manageNote}</p>}
      <div class="actions">
        {state.manageUrl && (
          <a class="btn" href={state.manageUrl} target="_blank" rel="noopener">
            {strings.manageBooking}
          </a>
        )}
        {confirmed && (
          <a class={state.manageUrl ? 'btn secondary' : 'btn'} href={icsUrl} download={`booking-${booking.id}.ics`}>
            <Icon path={ICONS.calendar} />
            {strings.addToCalendar}
          </a>
        )}
        <button type="button" class="btn secondary" onClick={() => flow.dispatch({ type: 'restart' })}>
          {strings.bookAnother}
        </button>
      </div>
    </>
  );
}
