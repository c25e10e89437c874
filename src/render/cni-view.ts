// Views of the CNI layer's data: a plugin chain's result, the invocations that ran, --dry-run
// plans, teardown/check outcomes. Plain text with colour as a port, and JSON from the same data.

import type { DryRun } from '../cni/network';
import type { CheckOutcome, CniResult, InvocationRecord, SetupOutcome, TeardownOutcome } from '../cni/types';
import { plainColours, type Colours } from './colour';
import { tableLines } from './table';

/** Left-aligned columns separated by three spaces; the heading row goes through `heading`. */
function columns(rows: string[][], colours: Colours): string[] {
  return tableLines(rows).map((line, r) => (r === 0 ? colours.header(line) : line));
}

const dash = (v: string | number | undefined): string => (v === undefined || v === '' ? '-' : String(v));

/** The result tables: interfaces, addresses, routes, DNS. */
export function renderCniResult(result: CniResult, colours: Colours = plainColours): string {
  const lines: string[] = [];
  lines.push(
    ...columns(
      [
        ['INTERFACE', 'MAC', 'MTU', 'SANDBOX'],
        ...result.interfaces.map((i) => [i.name, dash(i.mac), dash(i.mtu), dash(i.sandbox)]),
      ],
      colours,
    ),
  );
  lines.push('');
  lines.push(
    ...columns(
      [
        ['ADDRESS', 'GATEWAY', 'INTERFACE'],
        ...result.ips.map((ip) => [
          ip.address,
          dash(ip.gateway),
          ip.interface === undefined ? '-' : (result.interfaces[ip.interface]?.name ?? `#${ip.interface}`),
        ]),
      ],
      colours,
    ),
  );
  if (result.routes.length > 0) {
    lines.push('');
    lines.push(...columns([['ROUTE', 'GATEWAY'], ...result.routes.map((r) => [r.dst, dash(r.gw)])], colours));
  }
  const d = result.dns;
  if (d.nameservers.length + d.search.length + d.options.length > 0 || d.domain !== undefined) {
    lines.push('');
    lines.push(colours.header('DNS'));
    if (d.nameservers.length > 0) lines.push(`nameservers: ${d.nameservers.join(' ')}`);
    if (d.domain !== undefined) lines.push(`domain: ${d.domain}`);
    if (d.search.length > 0) lines.push(`search: ${d.search.join(' ')}`);
    if (d.options.length > 0) lines.push(`options: ${d.options.join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One row per plugin execution, in the order they ran. */
export function renderInvocationRecords(records: InvocationRecord[], colours: Colours = plainColours): string {
  const rows = [
    ['COMMAND', 'PLUGIN', 'STATUS', 'ERROR'],
    ...records.map((r) => [r.command, `${r.index}:${r.type}`, r.ok ? 'ok' : 'failed', r.error ?? '']),
  ];
  const lines = columns(rows, colours).map((line, i) => {
    if (i === 0) return line;
    return records[i - 1].ok ? line : colours.bad(line);
  });
  return `${lines.join('\n')}\n`;
}

export function renderSetupOutcome(outcome: SetupOutcome, colours: Colours = plainColours): string {
  const head = `network ${outcome.network} (${outcome.configFile}) set up for sandbox ${outcome.containerId} on ${outcome.ifname}`;
  return `${colours.good(head)}\n\n${renderCniResult(outcome.result, colours)}\n${renderInvocationRecords(outcome.invocations, colours)}${colours.dim(`cached in ${outcome.cacheFile}`)}\n`;
}

export function renderTeardownOutcome(outcome: TeardownOutcome, colours: Colours = plainColours): string {
  const lines: string[] = [];
  if (outcome.network === null) {
    lines.push(`nothing to tear down for sandbox ${outcome.containerId} on ${outcome.ifname}`);
  } else {
    lines.push(
      colours.good(
        `network ${outcome.network} torn down for sandbox ${outcome.containerId} on ${outcome.ifname} (config from ${outcome.configSource})`,
      ),
    );
  }
  for (const note of outcome.notes) lines.push(colours.dim(`note: ${note}`));
  const table = outcome.invocations.length > 0 ? `\n${renderInvocationRecords(outcome.invocations, colours)}` : '';
  return `${lines.join('\n')}\n${table}`;
}

export function renderCheckOutcome(outcome: CheckOutcome, colours: Colours = plainColours): string {
  const head = outcome.skipped
    ? `check skipped for network ${outcome.network} (disableCheck)`
    : colours.good(`network ${outcome.network} checked for sandbox ${outcome.containerId} on ${outcome.ifname}: ok`);
  const notes = outcome.notes.map((n) => `${colours.dim(`note: ${n}`)}\n`).join('');
  const table = outcome.invocations.length > 0 ? `\n${renderInvocationRecords(outcome.invocations, colours)}` : '';
  return `${head}\n${notes}${table}`;
}

/** --dry-run: for each plugin, its binary, the CNI environment and the stdin JSON. */
export function renderDryRun(plan: DryRun, colours: Colours = plainColours): string {
  const out: string[] = [];
  if (plan.network === null) {
    out.push(`${plan.command}: nothing would run`);
  } else {
    out.push(
      colours.header(
        `${plan.command} network ${plan.network} (config from ${plan.configSource}): ${plan.invocations.length} plugin run(s)`,
      ),
    );
  }
  for (const note of plan.notes) out.push(colours.dim(`note: ${note}`));
  plan.invocations.forEach((inv, n) => {
    out.push('');
    out.push(colours.header(`# ${n + 1}. ${inv.command} ${inv.type} (${inv.pluginPath ?? colours.bad('not found')})`));
    for (const key of Object.keys(inv.env).sort()) out.push(`${key}=${inv.env[key]}`);
    out.push('stdin:');
    out.push(JSON.stringify(inv.stdin, null, 2));
  });
  return `${out.join('\n')}\n`;
}

/** JSON views: the same data, two-space indented, newline-terminated. */
export function renderCniJson(data: SetupOutcome | TeardownOutcome | CheckOutcome | DryRun | CniResult): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
