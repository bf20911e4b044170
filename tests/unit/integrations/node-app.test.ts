import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { withAppExport } from '../../../src/integrations/node-app.ts';

// The Node adapter's server entry as installed: the plugin must recognise the version the project builds with.
const ADAPTER_ENTRY = readFileSync(createRequire(import.meta.url).resolve('@astrojs/node/server.js'), 'utf8');

describe("the server build exports Astro's App", () => {
  it("adds the export to the installed adapter's entry, after its own", () => {
    const exported = withAppExport(ADAPTER_ENTRY);
    expect(exported.startsWith(ADAPTER_ENTRY)).toBe(true);
    expect(exported.slice(ADAPTER_ENTRY.length)).toBe('\nexport { app as astroApp };\n');
  });

  it('leaves an entry that declares no App as expected as it is', () => {
    const other = 'const application = createApp({});\nexport { handler };';
    expect(withAppExport(other)).toBe(other);
  });
});
