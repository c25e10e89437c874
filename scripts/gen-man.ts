// Writes man/ from the command definitions (npm run man). test/unit/docs.test.ts fails when
// man/ is missing a page or a page is stale.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderManPages } from '../src/cli/man-pages';

const dir = join(__dirname, '..', 'man');
mkdirSync(dir, { recursive: true });
const pages = renderManPages();
for (const f of readdirSync(dir)) if (f.endsWith('.1') && !pages.has(f)) rmSync(join(dir, f));
for (const [name, text] of pages) writeFileSync(join(dir, name), text);
console.log(`wrote ${pages.size} man pages to man/`);
