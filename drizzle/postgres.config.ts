import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './adapters/storage/postgres/schema.ts',
  out: './adapters/storage/postgres/migrations',
});
