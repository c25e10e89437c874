// The layer table (.dependency-cruiser.cjs) is the one statement of which part of src/ may import
// which: every file of src/ belongs to a part, CONTRIBUTING.md shows the table as generated from it,
// and dependency-cruiser with that config refuses a wrong arrow and a cycle (a type-only one too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
type Part = { path: string; about: string; imports: string[]; types?: string[] };
const config = require(path.join(ROOT, '.dependency-cruiser.cjs'));
const layers: Record<string, Part> = config.layers;

function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** CONTRIBUTING's table of parts, as generated from the data. */
function layerTable(): string {
  const rows = Object.entries(layers).map(([name, p]) => {
    const types = p.types?.length ? `; types of ${p.types.join(', ')}` : '';
    return `| ${name} | \`${p.path}\` | ${p.imports.join(', ') || '(nothing)'}${types} | ${p.about} |`;
  });
  return ['| part | files | may import | what it is |', '|---|---|---|---|', ...rows].join('\n');
}

test('every file of src/ belongs to exactly one part of the layer table', () => {
  const files = allFiles(path.join(ROOT, 'src'))
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('src/cri/gen/'));
  for (const f of files) {
    const parts = Object.entries(layers).filter(([, p]) => new RegExp(p.path).test(f));
    assert.equal(parts.length, 1, `${f} is in ${parts.map(([n]) => n).join(', ') || 'no part'}`);
  }
  for (const [name, p] of Object.entries(layers))
    for (const dep of [...p.imports, ...(p.types ?? [])])
      assert.ok(layers[dep], `${name} names an unknown part ${dep}`);
});

test("CONTRIBUTING.md's layer table is the one generated from .dependency-cruiser.cjs (UPDATE_GOLDEN=1 rewrites it)", () => {
  const file = path.join(ROOT, 'CONTRIBUTING.md');
  const text = fs.readFileSync(file, 'utf8');
  const begin = '<!-- layers:begin (generated from .dependency-cruiser.cjs by test/unit/layers.test.ts) -->\n';
  const end = '\n<!-- layers:end -->';
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  assert.ok(a >= 0 && b > a, 'CONTRIBUTING.md has the layer table markers');
  const want = layerTable();
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, text.slice(0, a + begin.length) + want + text.slice(b));
  else assert.equal(text.slice(a + begin.length, b), want);
  // The layout above the table names every folder of src/ and every file at its top.
  const layout = text.slice(text.indexOf('## Layout'), a);
  for (const e of fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })) {
    const shown = e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`;
    assert.ok(layout.includes(shown), `CONTRIBUTING's layout names ${shown}`);
  }
});

test('dependency-cruiser with this config refuses a wrong arrow, a cycle and a type-only cycle (one finding per cycle)', async () => {
  const { cruise } = await import('dependency-cruiser');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-layers-'));
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write('src/kubelet/pure.ts', "import { flag } from '../cli/flags';\nexport const x = flag;\n");
    write('src/cli/flags.ts', 'export const flag = 1;\n');
    write('src/sync/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    write('src/sync/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
    write('src/plan/c.ts', "import type { D } from './d';\nexport type C = { d?: D };\n");
    write('src/plan/d.ts', "import type { C } from './c';\nexport type D = { c?: C };\n");
    write('src/plan/ok.ts', "import type { Pod } from '../kubelet/pure';\nexport type P = Pod;\n");
    write('tsconfig.json', '{"compilerOptions":{"strict":true}}');
    const { tsConfig: _unused, ...options } = config.options;
    const result = await cruise(['src'], {
      ...options,
      baseDir: dir,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const output = result.output as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
    };
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'kubelet-imports: src/kubelet/pure.ts -> src/cli/flags.ts',
      'no-cycle: src/plan/c.ts -> src/plan/d.ts',
      'no-cycle: src/sync/a.ts -> src/sync/b.ts',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the command rules refuse a command importing another command, a heavy definition, a static run.ts import and man text that imports code', async () => {
  const { cruise } = await import('dependency-cruiser');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-commands-'));
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write('src/cli/command-flags.ts', 'export const OUTPUT = 1;\n');
    write('src/cli/man-text.ts', 'export const LOOK = 1;\n');
    write('src/cli/context.ts', 'export const ctx = 1;\n');
    write('src/workflows/flow.ts', 'export const flow = 1;\n');
    write(
      'src/cli/command-table.ts',
      "import { a } from './commands/a/command';\nimport { b } from './commands/b/command';\n" +
        "export const rows = [a, b, () => import('./commands/a/run'), () => import('./commands/b/run')];\n",
    );
    // a: as it should be
    write('src/cli/commands/a/command.ts', "import { OUTPUT } from '../../command-flags';\nexport const a = OUTPUT;\n");
    write(
      'src/cli/commands/a/run.ts',
      "import { flow } from '../../../workflows/flow';\nimport { ctx } from '../../context';\nexport const run = () => flow + ctx;\n",
    );
    write('src/cli/commands/a/man.ts', "import { LOOK } from '../../man-text';\nexport const man = LOOK;\n");
    // b: every rule broken once
    write('src/cli/commands/b/command.ts', "import { flow } from '../../../workflows/flow';\nexport const b = flow;\n");
    write('src/cli/commands/b/run.ts', "import { run as a } from '../a/run';\nexport const run = a;\n");
    write('src/cli/commands/b/man.ts', "import { ctx } from '../../context';\nexport const man = ctx;\n");
    write('src/cli/context-b.ts', "import { run } from './commands/a/run';\nexport const x = run;\n");
    write('tsconfig.json', '{"compilerOptions":{"strict":true}}');
    const { tsConfig: _unused, ...options } = config.options;
    const result = await cruise(['src'], {
      ...options,
      baseDir: dir,
      validate: true,
      ruleSet: { forbidden: config.commandRules },
    });
    const output = result.output as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
    };
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'command-definition-light: src/cli/commands/b/command.ts -> src/workflows/flow.ts',
      'command-man-text: src/cli/commands/b/man.ts -> src/cli/context.ts',
      'command-own-folder: src/cli/commands/b/run.ts -> src/cli/commands/a/run.ts',
      'command-run-lazy: src/cli/commands/b/run.ts -> src/cli/commands/a/run.ts',
      'command-run-lazy: src/cli/context-b.ts -> src/cli/commands/a/run.ts',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
