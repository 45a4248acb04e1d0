/** The database itself, and the few server-wide values kept in it. */
export interface SettingsStore {
  /** Applies pending migrations; safe to call on every start and from several processes at once. */
  migrate(): Promise<void>;
  /**
   * Refreshes the query planner's statistics of svc's tables (after a bulk write, such as the demo seed, so the
   * planner does not keep planning for empty tables until the database's own autovacuum comes round).
   */
  analyze(): Promise<void>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;

  getSetting(key: string): Promise<string | null>;
  /** Stores `value` unless `key` has one; returns the value that is stored (first writer wins). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;
  /** Deletes `key` if it still holds `value` (a value another writer replaced meanwhile stays). */
  deleteSetting(key: string, value: string): Promise<void>;
}
