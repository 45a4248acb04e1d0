import type { WorkingHours } from '../../core/slot-engine.ts';

export interface WorkspaceRecord {
  id: string;
  slug: string;
  name: string;
  primaryColor: string | null;
  /** shown in the panel and the widget; null = none */
  logoUrl: string | null;
  /** where the owner's mails go (a new booking, a customer's cancel or reschedule); null = no owner mails */
  notificationEmail: string | null;
  plan: string;
  industry: string;
  /** IANA time zone name */
  timezone: string;
  /** BCP 47 */
  language: string;
  /** BCP 47 locale dates and numbers are written in (`en-GB`, `de-DE`); null = the language's own */
  locale: string | null;
  /** how customers reach the business: shown to them (the manage page names them once it is too late to change online) */
  contactEmail: string | null;
  contactPhone: string | null;
  timeFormat: '24h' | '12h';
  /** hours before the start within which a customer may no longer cancel */
  cancellationHours: number;
  /** new bookings start PENDING until confirmed */
  requiresConfirmation: boolean;
  /** a customer's own cancel through the manage link, in time, refunds what was paid (docs/contract/payments.md) */
  refundOnCancel: boolean;
  /** the workspace's working hours; providers without their own use these */
  hours: WorkingHours;
  /** allowed widget domains: `example.com`, `*.example.org` */
  domains: string[];
  createdAt: number;
  updatedAt: number;
}

export type WorkspacePatch = Partial<
  Pick<
    WorkspaceRecord,
    | 'name'
    | 'primaryColor'
    | 'logoUrl'
    | 'notificationEmail'
    | 'industry'
    | 'timezone'
    | 'language'
    | 'locale'
    | 'contactEmail'
    | 'contactPhone'
    | 'timeFormat'
    | 'cancellationHours'
    | 'requiresConfirmation'
    | 'refundOnCancel'
    | 'hours'
    | 'domains'
  >
>;

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** the first characters of the key, for recognising it in lists; never enough to use it */
  prefix: string;
  /** hex SHA-256 of the whole key; the key itself is never stored */
  hash: string;
  createdAt: number;
  revokedAt: number | null;
  /** last request it authenticated, to the minute; null = never used */
  lastUsedAt: number | null;
}

/**
 * Workspaces and their API keys. A workspace owns everything else: deleting it removes its catalogue, bookings,
 * payments, webhooks and keys.
 */
export interface WorkspaceStore {
  /**
   * Stores a new workspace and, when given, its first API key in one transaction: both or neither.
   * @throws UniqueViolation('workspace') when the slug is taken
   */
  createWorkspace(workspace: WorkspaceRecord, firstKey?: ApiKeyRecord): Promise<void>;
  getWorkspaceBySlug(slug: string): Promise<WorkspaceRecord | null>;
  getWorkspaceById(id: string): Promise<WorkspaceRecord | null>;
  updateWorkspace(id: string, patch: WorkspacePatch, at: number): Promise<WorkspaceRecord | null>;
  /** Removes a workspace and everything it owns. */
  deleteWorkspace(id: string): Promise<void>;

  createApiKey(key: ApiKeyRecord): Promise<void>;
  /** The live (not revoked) key with this hash. */
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
}
