import type { WorkingHours } from '../../core/slot-engine.ts';

export interface ServiceRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  /** minutes */
  duration: number;
  priceMinor: number;
  /** ISO 4217, upper case */
  currency: string;
  active: boolean;
  category: string | null;
  capacity: number;
  /** minutes kept free before and after each booking */
  bufferTime: number;
  /** minutes */
  minNotice: number;
  /** days; null = unlimited */
  maxAdvance: number | null;
  depositMinor: number | null;
  order: number;
  /** minutes between slot starts; null = duration */
  slotInterval: number | null;
  /** full times are shown and take a waiting list (docs/contract/classes.md) */
  waitlist: boolean;
  /** the widget offers to repeat a booking weekly (docs/contract/series.md); absent is false */
  repeatable?: boolean;
  providerIds: string[];
  createdAt: number;
  updatedAt: number;
}

export type ServicePatch = Partial<Omit<ServiceRecord, 'id' | 'workspaceId' | 'createdAt'>>;

export interface ProviderRecord {
  id: string;
  workspaceId: string;
  name: string;
  email: string | null;
  active: boolean;
  /** null: the provider works the workspace's hours */
  hours: WorkingHours | null;
  serviceIds: string[];
  createdAt: number;
  updatedAt: number;
}

export type ProviderPatch = Partial<Omit<ProviderRecord, 'id' | 'workspaceId' | 'createdAt'>>;

export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox', 'phone', 'email', 'date'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export interface CustomFieldRecord {
  id: string;
  workspaceId: string;
  /** [a-z0-9_], unique in the workspace */
  key: string;
  label: string;
  type: CustomFieldType;
  required: boolean;
  /** select only */
  options: string[] | null;
  placeholder: string | null;
  order: number;
  /** empty: every service */
  serviceIds: string[];
  createdAt: number;
}

export type CustomFieldPatch = Partial<Omit<CustomFieldRecord, 'id' | 'workspaceId' | 'createdAt'>>;

/**
 * The catalogue a workspace offers: services, providers (and the links between them, kept from both sides),
 * working hours (on the workspace and providers) and custom fields. Every call is scoped to a workspace:
 * a record of another workspace is never returned or changed.
 */
export interface CatalogueStore {
  createService(service: ServiceRecord): Promise<void>;
  getService(workspaceId: string, id: string): Promise<ServiceRecord | null>;
  /** Ordered by `order`, then `name`. */
  listServices(workspaceId: string, options: { activeOnly: boolean }): Promise<ServiceRecord[]>;
  updateService(workspaceId: string, id: string, patch: ServicePatch): Promise<ServiceRecord | null>;

  createProvider(provider: ProviderRecord): Promise<void>;
  getProvider(workspaceId: string, id: string): Promise<ProviderRecord | null>;
  /** Ordered by name. */
  listProviders(workspaceId: string): Promise<ProviderRecord[]>;
  updateProvider(workspaceId: string, id: string, patch: ProviderPatch): Promise<ProviderRecord | null>;

  /** @throws UniqueViolation('custom field') when the key is taken in the workspace */
  createCustomField(field: CustomFieldRecord): Promise<void>;
  /** Ordered by `order`, then key. */
  listCustomFields(workspaceId: string): Promise<CustomFieldRecord[]>;
  updateCustomField(workspaceId: string, id: string, patch: CustomFieldPatch): Promise<CustomFieldRecord | null>;
  deleteCustomField(workspaceId: string, id: string): Promise<boolean>;
}
