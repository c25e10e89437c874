// man pages (npm run man writes them to man/): syncpod.1 and one page per command. SYNOPSIS, OPTIONS
// and ARGUMENTS come from the command definitions (program.ts), everything else from the text in
// each command's folder (src/cli/commands/NAME/man.ts; pieces several pages share in man-text.ts).
// Sections in the usual order: NAME, SYNOPSIS, DESCRIPTION, ARGUMENTS, OPTIONS, EXIT STATUS,
// ENVIRONMENT, FILES, EXAMPLES, SEE ALSO.
// test/unit/docs.test.ts compares man/ with this.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { SyncpodError } from '../errors';
import { VERSION } from '../version';
import { ENVIRONMENT, FILES, PROGRAM_DOC, type CommandDoc, type EnvName, type Example, type FileKey } from './man-text';
import { programForDocs } from './program';

/** Plain text as roff: backslashes, a leading . or ', hyphens; `code` in bold. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/-/g, '\\-')
    .replace(/`([^`]+)`/g, '\\fB$1\\fR');
}

/** Text shown as typed (examples): escaped, no markup. */
function literal(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/-/g, '\\-');
}

function optionLine(o: Option): string {
  const dflt = o.defaultValue;
  const shown = dflt !== undefined && dflt !== false && !(Array.isArray(dflt) && dflt.length === 0) && !o.negate;
  return `.TP\n\\fB${roff(o.flags)}\\fR\n${roff(o.description)}${shown ? roff(` (default: ${JSON.stringify(dflt)})`) : ''}\n`;
}

function usageOf(cmd: Command): string {
  const args = cmd.registeredArguments.map((a) =>
    a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`,
  );
  return ['syncpod', '[global options]', cmd.name(), cmd.options.length ? '[options]' : '', ...args]
    .filter(Boolean)
    .join(' ');
}

const paragraphs = (ps: readonly string[]) => ps.map((p) => `.PP\n${roff(p)}\n`).join('');
const tagged = (rows: ReadonlyArray<readonly [string, string]>) =>
  rows.map(([tag, text]) => `.TP\n\\fB${roff(tag)}\\fR\n${roff(text)}\n`).join('');

function exitStatus(rows: CommandDoc['exitStatus']): string {
  return `.SH EXIT STATUS\n${tagged(rows)}`;
}

function environment(names: readonly EnvName[]): string {
  if (names.length === 0) return '';
  return `.SH ENVIRONMENT\n${tagged(names.map((n) => [n, ENVIRONMENT[n]] as const))}`;
}

function files(keys: readonly FileKey[]): string {
  if (keys.length === 0) return '';
  const unique = [...new Set(keys)];
  return (
    `.SH FILES\nNode paths, read and written under \\-\\-host\\-root (SYNCPOD_HOST_ROOT) unless said otherwise; flags that name them win.\n` +
    tagged(unique.map((k) => [FILES[k].path, FILES[k].text] as const))
  );
}

function examples(list: readonly Example[]): string {
  if (list.length === 0) return '';
  return `.SH EXAMPLES\n${list.map((e) => `.PP\n${roff(e.what)}\n.PP\n.RS 4\n.nf\n${literal(e.command)}\n.fi\n.RE\n`).join('')}`;
}

/** 'plan' -> syncpod-plan(1); 'crictl(1)' stays an outside page. */
function seeAlso(refs: readonly string[]): string {
  const items = refs.map((r) => {
    const outside = /^(.+)\((\d)\)$/.exec(r);
    return outside ? `\\fB${roff(outside[1]!)}\\fR(${outside[2]})` : `\\fBsyncpod\\-${roff(r)}\\fR(1)`;
  });
  return `.SH SEE ALSO\n${items.join(', ')}\n`;
}

const isHidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;

/** Where a command's man page text lives: its own folder (src/cli/commands/NAME/man.ts). */
export const manTextFile = (name: string) => `src/cli/commands/${name}/man.ts`;

/**
 * The man page text of every command of the program, read from each command's folder by its name
 * (npm run man and the tests only; the bundle never loads it). A folder without man.ts is left out,
 * and renderManPages names it.
 */
export function commandDocs(program: Command = programForDocs()): Record<string, CommandDoc> {
  const docs: Record<string, CommandDoc> = {};
  for (const c of program.commands) {
    if (isHidden(c)) continue;
    if (!existsSync(join(__dirname, 'commands', c.name(), 'man.ts'))) continue;
    const mod: { man: CommandDoc } = require(`./commands/${c.name()}/man`);
    docs[c.name()] = mod.man;
  }
  return docs;
}

/** Every man page: syncpod.1 plus one page per command. A command without docs is an error. */
export function renderManPages(
  program: Command = programForDocs(),
  docs: Readonly<Record<string, CommandDoc>> = commandDocs(program),
): Map<string, string> {
  const pages = new Map<string, string>();
  // .nh: no hyphenation, so command names, flags and paths are never split at a line end.
  const header = (name: string) => `.TH ${name.toUpperCase()} 1 "2026" "syncpod ${VERSION}" "syncpod manual"\n.nh\n`;
  const commands = program.commands.filter((c) => !isHidden(c));
  const missing = commands.filter((c) => docs[c.name()] === undefined).map((c) => c.name());
  if (missing.length)
    throw new SyncpodError(
      `no man page text for ${missing.join(', ')}: add ${missing.map(manTextFile).join(', ')} (export const man)`,
    );

  pages.set(
    'syncpod.1',
    header('syncpod') +
      `.SH NAME\nsyncpod \\- ${roff(program.description().split('\n')[0]!)}\n` +
      `.SH SYNOPSIS\n\\fBsyncpod\\fR [global options] \\fIcommand\\fR [options] [arguments]\n` +
      `.SH DESCRIPTION\n${paragraphs(PROGRAM_DOC.description)}` +
      `.SH GLOBAL OPTIONS\n${program.options.map(optionLine).join('')}` +
      `.SH COMMANDS\n${commands.map((c) => `.TP\n\\fB${c.name()}\\fR\n${roff(c.description())}\n`).join('')}` +
      exitStatus(PROGRAM_DOC.exitStatus) +
      environment(Object.keys(ENVIRONMENT) as EnvName[]) +
      files(Object.keys(FILES) as FileKey[]) +
      examples(PROGRAM_DOC.examples) +
      seeAlso([...PROGRAM_DOC.seeAlso, ...commands.map((c) => c.name())]),
  );
  for (const c of commands) {
    const doc = docs[c.name()]!;
    const args = c.registeredArguments
      .map((a) => `.TP\n\\fI${roff(a.name())}\\fR\n${roff(a.description || '')}\n`)
      .join('');
    pages.set(
      `syncpod-${c.name()}.1`,
      header(`syncpod-${c.name()}`) +
        `.SH NAME\nsyncpod\\-${c.name()} \\- ${roff(c.description().split('\n')[0]!)}\n` +
        `.SH SYNOPSIS\n${roff(usageOf(c))}\n` +
        (c.aliases().length ? `.PP\nAliases: ${c.aliases().join(', ')}\n` : '') +
        `.SH DESCRIPTION\n${paragraphs(doc.description)}` +
        (args ? `.SH ARGUMENTS\n${args}` : '') +
        (c.options.length ? `.SH OPTIONS\n${c.options.map(optionLine).join('')}` : '') +
        `.SH GLOBAL OPTIONS\nSee \\fBsyncpod\\fR(1).\n` +
        exitStatus(doc.exitStatus) +
        environment(doc.environment) +
        files(doc.files) +
        examples(doc.examples) +
        seeAlso(['syncpod(1)', ...doc.seeAlso]),
    );
  }
  return pages;
}
