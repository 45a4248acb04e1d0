import { acceptHostMessage, frameContextOrigin, panelEnvelope, type HostMessage, type PanelMessage } from '../protocol/panel-protocol.ts';

/** The panel's side of the host protocol: it talks to its parent frame (or, in window mode, its opener) only. */
export interface HostLink {
  /** the host origin read from frameContext: the only origin posted to or listened to */
  origin: string;
  send(message: PanelMessage): void;
  close(): void;
}

export function linkToHost(channelId: string, frameContext: string, onMessage: (message: HostMessage) => void): HostLink | null {
  const origin = frameContextOrigin(frameContext);
  const peer = window.parent !== window ? window.parent : (window.opener as Window | null);
  if (!origin || !peer) return null;
  const listener = (event: MessageEvent) => {
    if (event.source !== peer) return;
    const message = acceptHostMessage(event, origin, channelId);
    if (message) onMessage(message);
  };
  window.addEventListener('message', listener);
  return {
    origin,
    send: (message) => peer.postMessage(panelEnvelope(channelId, message), origin),
    close: () => window.removeEventListener('message', listener),
  };
}
