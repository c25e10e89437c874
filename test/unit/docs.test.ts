// man/ and shell completions come from the command definitions: a missing or stale page fails here.
import { test } from 'node:test';
import type { Option } from '@commander-js/extra-typings';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completionScript } from '../../src/cli/commands/completion/run';
import { programForDocs } from '../../src/cli/program';
import { commandDocs, renderManPages } from '../../src/cli/man-pages';
import { FILES, type NodeFile } from '../../src/cli/man-text';

const COMMAND_DOCS = commandDocs();
import { VERSION } from '../../src/version';

const manDir = path.join(__dirname, '..', '..', 'man');

test('every command has a man page and every page in man/ is current (run npm run man)', () => {
  const pages = renderManPages();
  const program = programForDocs();
  for (const c of program.commands) {
    if ((c as unknown as { _hidden?: boolean })._hidden) continue;
    assert.ok(pages.has(`syncpod-${c.name()}.1`), `no page generated for ${c.name()}`);
  }
  const onDisk = fs
    .readdirSync(manDir)
    .filter((f) => f.endsWith('.1'))
    .sort();
  assert.deepEqual(onDisk, [...pages.keys()].sort(), 'man/ does not hold exactly the generated pages');
  for (const [name, text] of pages) {
    assert.equal(fs.readFileSync(path.join(manDir, name), 'utf8'), text, `man/${name} is stale`);
  }
});

test('a command page documents its own flags', () => {
  const page = renderManPages().get('syncpod-pods.1')!;
  assert.match(page, /\\-\\-no\\-trunc/);
  assert.match(page, /\\-\\-label <key=value>/);
  assert.match(page, /^\.SH EXIT STATUS$/m);
});

test('completion scripts name every command and its flags', () => {
  const bash = completionScript('bash', programForDocs());
  assert.match(bash, /complete -F _syncpod syncpod/);
  assert.match(bash, /\bnet-setup\)/);
  assert.match(bash, /--detailed-exitcode/);
  assert.match(completionScript('zsh', programForDocs()), /^#compdef syncpod/);
  assert.match(completionScript('fish', programForDocs()), /__fish_seen_subcommand_from plan' -l detailed-exitcode/);
  assert.throws(() => completionScript('tcsh', programForDocs()), /unknown shell "tcsh"/);
});

test('the version in the code is the package version', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.equal(VERSION, pkg.version);
});

// ---------------------------------------------------------------------------------------------
// what a reader of the pages finds in them

/** A page's sections, in order: [name, text with the roff markup taken out]. */
function sections(page: string): Array<[string, string]> {
  return page
    .split(/^\.SH /m)
    .slice(1)
    .map((chunk) => {
      const nl = chunk.indexOf('\n');
      const text = chunk
        .slice(nl + 1)
        .replace(/^\.(PP|TP|RS \d+|RE|nf|fi)$/gm, '')
        .replace(/\\f[BIR]/g, '')
        .replace(/\\-/g, '-')
        .replace(/\\e/g, '\\')
        .replace(/\\&/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      return [chunk.slice(0, nl), text] as [string, string];
    });
}

function section(page: string, name: string): string | undefined {
  return sections(page).find(([n]) => n === name)?.[1];
}

const commandPages = () => [...renderManPages()].filter(([f]) => f !== 'syncpod.1');

/** The man page text itself: the shared pieces (man-text.ts) and each command's man.ts. */
const SRC = path.join(__dirname, '..', '..', 'src');
const isManText = (p: string) =>
  p === path.join(SRC, 'cli', 'man-text.ts') ||
  (path.basename(p) === 'man.ts' && path.dirname(path.dirname(p)) === path.join(SRC, 'cli', 'commands'));

/** Every src/ file's text (the generated codecs and the man page text left out). */
function sourceText(): string {
  const root = path.join(__dirname, '..', '..', 'src');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== path.join(root, 'cri', 'gen')) walk(p);
      } else if (e.name.endsWith('.ts') && !isManText(p)) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out.join('\n');
}

test('every command page explains the command: a DESCRIPTION beyond its NAME line, EXIT STATUS, EXAMPLES', () => {
  for (const [file, page] of commandPages()) {
    const name = section(page, 'NAME')!;
    const summary = name.replace(/^\S+ - /, '');
    const description = section(page, 'DESCRIPTION');
    assert.ok(description, `${file}: no DESCRIPTION`);
    assert.ok(description.length > name.length, `${file}: DESCRIPTION is not longer than the NAME line`);
    assert.notEqual(description, summary, `${file}: DESCRIPTION repeats the NAME line`);
    assert.match(section(page, 'EXIT STATUS') ?? '', /^0 /, `${file}: EXIT STATUS does not start with code 0`);
    assert.ok(section(page, 'EXAMPLES'), `${file}: no EXAMPLES`);
  }
});

test('the common tasks have examples that run the command they document', () => {
  const pages = renderManPages();
  const wanted = [
    'plan',
    'sync',
    'doctor',
    'logs',
    'exec',
    'port-forward',
    'runp',
    'create',
    'net-setup',
    'rmi',
    'report',
    'pods',
    'ps',
    'images',
    'stats',
    'statsp',
  ];
  for (const cmd of wanted) {
    const examples = section(pages.get(`syncpod-${cmd}.1`)!, 'EXAMPLES') ?? '';
    assert.match(examples, new RegExp(`syncpod ${cmd} `), `syncpod-${cmd}.1: no example runs syncpod ${cmd}`);
  }
  assert.match(section(pages.get('syncpod-rmi.1')!, 'EXAMPLES')!, /syncpod rmi --prune/);
  assert.match(section(pages.get('syncpod-plan.1')!, 'EXAMPLES')!, /syncpod plan --node/);
  assert.match(section(pages.get('syncpod-plan.1')!, 'EXAMPLES')!, /--detailed-exitcode/);
});

test('sections come in the usual order', () => {
  const order = [
    'NAME',
    'SYNOPSIS',
    'DESCRIPTION',
    'ARGUMENTS',
    'OPTIONS',
    'GLOBAL OPTIONS',
    'COMMANDS',
    'EXIT STATUS',
    'ENVIRONMENT',
    'FILES',
    'EXAMPLES',
    'SEE ALSO',
  ];
  for (const [file, page] of renderManPages()) {
    const names = sections(page).map(([n]) => n);
    for (const n of names) assert.ok(order.includes(n), `${file}: unexpected section ${n}`);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
      `${file}: sections out of order`,
    );
  }
});

test('exit codes: the pages of commands with --detailed-exitcode or -o npd say what 2 means', () => {
  const program = programForDocs();
  for (const c of program.commands) {
    const page = renderManPages().get(`syncpod-${c.name()}.1`);
    if (!page) continue;
    const status = section(page, 'EXIT STATUS')!;
    if (c.options.some((o) => o.long === '--detailed-exitcode'))
      assert.match(status, /\b2 With --detailed-exitcode/, `syncpod-${c.name()}.1`);
    if (c.options.some((o) => o.long === '--output' && /npd/.test(o.description)))
      assert.match(status, /-o npd/, `syncpod-${c.name()}.1`);
  }
  assert.match(section(renderManPages().get('syncpod-exec.1')!, 'EXIT STATUS')!, /130 Interrupted/);
});

test('every environment variable a page names is read by src/, and syncpod(1) names every one src/ reads', () => {
  const src = sourceText();
  const pages = renderManPages();
  for (const [file, page] of pages) {
    const env = page.split(/^\.SH /m).find((s) => s.startsWith('ENVIRONMENT\n'));
    if (!env) continue;
    const names = [...env.matchAll(/^\.TP\n\\fB([A-Z0-9\\_]+)\\fR$/gm)].map((m) => m[1]!.replace(/\\/g, ''));
    assert.ok(names.length > 0, `${file}: ENVIRONMENT names nothing`);
    for (const n of names)
      assert.ok(
        new RegExp(`env\\.${n}\\b|env\\[['"]${n}['"]\\]`).test(src),
        `${file}: ${n} is not read anywhere in src/`,
      );
  }
  const read = new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)].map((m) => m[1]!));
  const overview = section(pages.get('syncpod.1')!, 'ENVIRONMENT')!;
  for (const n of read)
    assert.match(overview, new RegExp(`\\b${n}\\b`), `syncpod.1: ENVIRONMENT does not name ${n}, which src/ reads`);
  for (const n of [
    'CONTAINER_RUNTIME_ENDPOINT',
    'IMAGE_SERVICE_ENDPOINT',
    'CRI_CONFIG_FILE',
    'SYNCPOD_HOST_ROOT',
    'NO_COLOR',
  ])
    assert.ok(read.has(n), n);
});

test('every node path a FILES section names is one src/ uses', () => {
  const src = sourceText();
  for (const [key, f] of Object.entries(FILES) as Array<[string, NodeFile]>) {
    const needles = f.inSource ?? [f.path.split('<')[0]!.replace(/\/+$/, '')];
    for (const s of needles) assert.ok(s.length > 1 && src.includes(s), `FILES.${key}: "${s}" is not in src/`);
  }
  const overview = section(renderManPages().get('syncpod.1')!, 'FILES')!;
  for (const p of [
    '/etc/crictl.yaml',
    '/run/syncpod/locks/',
    '/etc/cni/net.d',
    '/var/lib/cni/results/',
    '--config-dir',
    '/var/log/pods/',
  ])
    assert.ok(overview.includes(p), `syncpod.1: FILES lacks ${p}`);
});

test('syncpod(1) has ENVIRONMENT, FILES and SEE ALSO crictl(1); the pages of commands that touch the node name its files', () => {
  const pages = renderManPages();
  const main = pages.get('syncpod.1')!;
  assert.ok(section(main, 'ENVIRONMENT'));
  assert.ok(section(main, 'FILES'));
  assert.match(section(main, 'SEE ALSO')!, /crictl\(1\)/);
  assert.match(section(pages.get('syncpod-sync.1')!, 'FILES')!, /\/run\/syncpod\/locks\//);
  assert.match(
    section(pages.get('syncpod-net-setup.1')!, 'FILES')!,
    /\/etc\/cni\/net\.d .*\/opt\/cni\/bin.*\/var\/lib\/cni\/results\//,
  );
  assert.match(section(pages.get('syncpod-plan.1')!, 'FILES')!, /\/etc\/crictl\.yaml .*--config-dir.*staticPodPath/);
  assert.match(section(pages.get('syncpod-logs.1')!, 'FILES')!, /\/var\/log\/pods\//);
});

test('a command without man page text is refused by name', () => {
  const docs = { ...COMMAND_DOCS };
  delete (docs as Record<string, unknown>).plan;
  assert.throws(
    () => renderManPages(programForDocs(), docs),
    /no man page text for plan: add src\/cli\/commands\/plan\/man\.ts \(export const man\)/,
  );
});

test("a command's help ends by pointing at its man page", () => {
  const plan = programForDocs().commands.find((c) => c.name() === 'plan')!;
  let out = '';
  plan.configureOutput({ writeOut: (s) => (out += s) });
  plan.outputHelp();
  assert.match(out, /man syncpod-plan \(in the source tree: man \.\/man\/syncpod-plan\.1\)\.\n$/);
});

/** Shell words of one line, quotes removed (enough for the examples: no escapes inside quotes). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

test('every syncpod command line in EXAMPLES names a real command and only flags it takes', () => {
  const program = programForDocs();
  const flagsOf = (opts: readonly Option[]) =>
    new Map(
      opts.flatMap((o) =>
        [o.short, o.long].filter((f): f is string => !!f).map((f) => [f, o.required || o.optional] as const),
      ),
    );
  const globals = flagsOf(program.options);
  const docs = Object.entries(COMMAND_DOCS).flatMap(([name, d]) => d.examples.map((e) => [name, e.command] as const));
  let checked = 0;
  for (const [page, text] of docs) {
    for (const line of text.split('\n')) {
      // Each syncpod invocation of the line: after `syncpod`, up to a pipe, ; && or the end of $( ).
      for (const m of line.matchAll(/(?:^|[|(;&]\s*|\$\()syncpod\s+((?:(?!\$\()[^|;&)])*)/g)) {
        const w = words(m[1]!);
        let i = 0;
        while (i < w.length && w[i]!.startsWith('-')) i += globals.get(w[i]!) ? 2 : 1;
        const name = w[i++]!;
        const cmd = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
        assert.ok(cmd, `${page} example "${line}": no command ${name}`);
        const own = flagsOf(cmd.options);
        for (; i < w.length; i++) {
          const word = w[i]!;
          if (word === '-' || !word.startsWith('-')) {
            if (name === 'exec') break; // the rest is the command's
            continue;
          }
          const given = word.startsWith('--') ? [word.split('=')[0]!] : [...word.slice(1)].map((ch) => `-${ch}`);
          for (const f of given) {
            assert.ok(own.has(f), `${page} example "${line}": syncpod ${name} has no flag ${f}`);
            if (own.get(f) && !word.includes('=')) i++;
          }
        }
        checked++;
      }
    }
  }
  assert.ok(checked >= 60, `only ${checked} invocations found`);
});

test('the docs table holds exactly the visible commands, and SEE ALSO names pages that exist', () => {
  const names = programForDocs()
    .commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => c.name());
  assert.deepEqual(Object.keys(COMMAND_DOCS).sort(), [...names].sort());
  for (const [name, d] of Object.entries(COMMAND_DOCS)) {
    for (const ref of d.seeAlso) {
      if (/\(\d\)$/.test(ref)) continue;
      assert.ok(names.includes(ref), `${name}: SEE ALSO names syncpod-${ref}(1), which does not exist`);
      assert.notEqual(ref, name, `${name}: SEE ALSO names its own page`);
    }
  }
});
