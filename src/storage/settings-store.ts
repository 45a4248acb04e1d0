/** The database itself, and the few server-wide values kept in it. */
export interface SettingsStore {
  /** Applies pending migrations; safe to call on every start and from several processes at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;

  getSetting(key: string): Promise<string | null>;
  /** Stores `value` unless `key` has one; returns the value that is stored (first writer wins). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;
}
