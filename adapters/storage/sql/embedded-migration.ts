/** A drizzle-kit migration compiled into the program, so the binary needs no migration files on disk. */
export interface EmbeddedMigration {
  tag: string;
  /** SHA-256 of the SQL file, as drizzle-kit's migrator records it */
  hash: string;
  /** the journal's `when`: migrations apply in this order, once each */
  folderMillis: number;
  statements: string[];
}

/** drizzle's bookkeeping table, kept compatible with `drizzle-kit migrate`. */
export const MIGRATIONS_TABLE = '__drizzle_migrations';
