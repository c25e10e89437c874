// man/ and shell completions come from the command definitions: a missing or stale page fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completionScript, programForDocs } from '../../src/cli/docs';
import { renderManPages } from '../../src/cli/man-pages';
import { VERSION } from '../../src/version';

const manDir = path.join(__dirname, '..', '..', 'man');

test('every command has a man page and every page in man/ is current (run npm run man)', () => {
  const pages = renderManPages();
  const program = programForDocs();
  for (const c of program.commands) {
    if ((c as unknown as { _hidden?: boolean })._hidden) continue;
    assert.ok(pages.has(`syncpod-${c.name()}.1`), `no page generated for ${c.name()}`);
  }
  const onDisk = fs.readdirSync(manDir).filter((f) => f.endsWith('.1')).sort();
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
  const bash = completionScript('bash');
  assert.match(bash, /complete -F _syncpod syncpod/);
  assert.match(bash, /\bnet-setup\)/);
  assert.match(bash, /--detailed-exitcode/);
  assert.match(completionScript('zsh'), /^#compdef syncpod/);
  assert.match(completionScript('fish'), /__fish_seen_subcommand_from plan' -l detailed-exitcode/);
  assert.throws(() => completionScript('tcsh'), /unknown shell "tcsh"/);
});

test('the version in the code is the package version', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.equal(VERSION, pkg.version);
});
