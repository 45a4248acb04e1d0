/* What surrounds the steps: the header, the notice and the live region (Flow), in a dialog (floating) or in place (inline). */
import type { Signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useWidget } from './context.ts';
import type { Strings } from './i18n.ts';
import { previousStep, type FlowState, type Notice, type Step } from './machine.ts';
import { Icon, ICONS, StepBody } from './steps/index.tsx';

function stepTitle(step: Step, state: FlowState, strings: Strings): string {
  switch (step) {
    case 'loading':
      return strings.loading;
    case 'failed':
      return strings.loadFailed;
    case 'unavailable':
      return strings.stepUnavailable;
    case 'service':
      return strings.stepService;
    case 'provider':
      return strings.stepProvider;
    case 'day':
      return strings.stepDay;
    case 'time':
      return strings.stepTime;
    case 'details':
      return strings.stepDetails;
    case 'redirecting':
      return strings.awaitingPayment;
    case 'done':
      return state.booking?.status === 'CONFIRMED' ? strings.stepDone : strings.stepPending;
  }
}

function noticeText(notice: Notice, strings: Strings, workspaceName: string): string {
  switch (notice.kind) {
    case 'taken':
      return strings.slotTaken;
    case 'forbidden':
      return strings.notAllowed(workspaceName);
    case 'retry':
      return strings.retry;
    case 'fixFields':
      return strings.fixFields;
    case 'captcha':
      return strings.captcha;
    case 'server':
      return notice.text;
  }
}

/** Whether the host page's own heading already names the business (as svc's hosted booking page does): then the widget does not repeat it. */
function namedByPage(name: string): boolean {
  return document.querySelector('h1')?.textContent?.trim() === name.trim();
}

/** The whole flow: header, notice, the current step, and the live region that announces step changes. */
function Flow({ titleId, onClose }: { titleId: string; onClose?: () => void }) {
  const { flow, strings } = useWidget();
  const state = flow.state.value;
  const heading = useRef<HTMLHeadingElement>(null);
  const title = stepTitle(state.step, state, strings);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    // The first step appears on its own; later ones follow the visitor's action, so focus and announce them.
    if (state.stepChanges <= 1) return;
    heading.current?.focus();
    setAnnouncement(title);
  }, [state.stepChanges]);

  const config = state.config;
  const canGoBack = previousStep(state) !== null;
  return (
    <>
      <div class="head">
        {canGoBack && (
          <button type="button" class="icon-btn" onClick={() => flow.dispatch({ type: 'back' })} aria-label={strings.back}>
            <Icon path={ICONS.back} />
          </button>
        )}
        {config?.workspace.logoUrl && <img class="logo" src={config.workspace.logoUrl} alt="" />}
        <div class="titles">
          {config && !namedByPage(config.workspace.name) && <p class="workspace">{config.workspace.name}</p>}
          <h2 id={titleId} ref={heading} tabIndex={-1}>
            {title}
          </h2>
        </div>
        {onClose && (
          <button type="button" class="icon-btn" aria-label={strings.close} onClick={onClose}>
            <Icon path={ICONS.close} />
          </button>
        )}
      </div>
      {state.notice && state.step !== 'unavailable' && state.notice.kind !== 'fixFields' && (
        <div class="notice" role="alert">
          {noticeText(state.notice, strings, config?.workspace.name ?? '')}
        </div>
      )}
      <StepBody state={state} />
      <p class="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </>
  );
}

/** Floating mode: the launcher and the modal dialog around the flow. */
export function FloatingWidget({ open, label, onOpen, onClose }: { open: Signal<boolean>; label: string; onOpen(): void; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const isOpen = open.value;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (isOpen && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>('h2')?.focus();
    } else if (!isOpen && element.open) {
      element.close();
      launcher.current?.focus();
    }
  }, [isOpen]);
  // Tab and Shift+Tab cycle inside the dialog: the page behind is inert, and focus must not leave to the browser.
  const trap = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, textarea, [tabindex="0"]')].filter(
      (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
    );
    const root = dialog.current.getRootNode() as ShadowRoot;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (root.activeElement === first || root.activeElement === dialog.current.querySelector('h2'))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && root.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  const titleId = 'svc-dialog-title';
  return (
    <>
      <button type="button" class="launcher" ref={launcher} aria-haspopup="dialog" aria-expanded={isOpen} onClick={onOpen}>
        <Icon path={ICONS.calendar} />
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={trap}
        onCancel={(event) => {
          event.preventDefault();
          onClose();
        }}
      >
        <div class="panel">{isOpen && <Flow titleId={titleId} onClose={onClose} />}</div>
      </dialog>
    </>
  );
}

/** Inline mode: the flow in place. */
export function InlineWidget() {
  return (
    <section class="panel" aria-labelledby="svc-inline-title">
      <Flow titleId="svc-inline-title" />
    </section>
  );
}
