import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { PANEL_SCHEMA, renderPanelSchema } from '../../scripts/panel-schema.ts';

test("the panel's committed API types match the OpenAPI document the routes describe now (run `bun scripts/panel-schema.ts` after an API change)", async () => {
  expect(readFileSync(PANEL_SCHEMA, 'utf8')).toBe(await renderPanelSchema());
}, 30_000);
