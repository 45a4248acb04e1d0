/*
 * Settings: the business (name, colour, logo, zone, language, time format, cancellation hours, manual
 * confirmation), widget domains, webhooks (secret shown once, events, deliveries, test send, on/off), API keys
 * (shown once, revoke), linked sites and pairing codes. Without `svc_manage_settings` everything is read-only;
 * making pairing codes and making or revoking API keys also need `svc_manage_operations`.
 */
import { ReadOnlyNote, type SectionProps } from '../common.tsx';
import { ApiKeySettings } from './api-keys.tsx';
import { DomainSettings } from './domains.tsx';
import { LinkedSites } from './linked-sites.tsx';
import { WebhookSettings } from './webhooks.tsx';
import { WorkspaceSettings } from './workspace.tsx';

export function Settings(props: SectionProps) {
  const { can, t } = props;
  return (
    <div class="settings">
      {!can.settings && <ReadOnlyNote text={t.readOnly} />}
      <WorkspaceSettings {...props} />
      <DomainSettings {...props} />
      <WebhookSettings {...props} />
      {can.settings && !can.credentials && <ReadOnlyNote text={t.readOnlyCredentials} />}
      <ApiKeySettings {...props} />
      <LinkedSites {...props} />
    </div>
  );
}
