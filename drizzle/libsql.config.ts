import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './adapters/storage/libsql/schema.ts',
  out: './adapters/storage/libsql/migrations',
});
