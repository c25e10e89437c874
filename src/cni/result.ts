// Plugin results as data: the 1.x shape (interfaces, ips, routes, dns). Results of spec 0.1.0/0.2.0
// (ip4/ip6 objects) are converted; unknown keys are dropped from the normalised view only.

import type { CniDns, CniInterface, CniIp, CniResult, CniRoute, Json, JsonObject } from './types';

function obj(v: Json | undefined): JsonObject | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}
function list(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}
function str(v: Json | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
function num(v: Json | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}
function strings(v: Json | undefined): string[] {
  return list(v).filter((x): x is string => typeof x === 'string');
}

function route(v: Json): CniRoute | undefined {
  const r = obj(v);
  const dst = str(r?.dst);
  if (r === undefined || dst === undefined) return undefined;
  const out: CniRoute = { dst };
  const gw = str(r.gw);
  if (gw !== undefined) out.gw = gw;
  for (const key of ['mtu', 'advmss', 'priority', 'table', 'scope'] as const) {
    const n = num(r[key]);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

function dns(v: Json | undefined): CniDns {
  const d = obj(v) ?? {};
  const out: CniDns = { nameservers: strings(d.nameservers), search: strings(d.search), options: strings(d.options) };
  const domain = str(d.domain);
  if (domain !== undefined) out.domain = domain;
  return out;
}

/** Normalise a result object (any supported spec version) to the 1.x view. */
export function normaliseResult(raw: JsonObject, fallbackVersion: string): CniResult {
  const cniVersion = str(raw.cniVersion) ?? fallbackVersion;
  const interfaces: CniInterface[] = [];
  for (const item of list(raw.interfaces)) {
    const i = obj(item);
    const name = str(i?.name);
    if (i === undefined || name === undefined) continue;
    const iface: CniInterface = { name };
    const mac = str(i.mac);
    if (mac !== undefined) iface.mac = mac;
    const mtu = num(i.mtu);
    if (mtu !== undefined) iface.mtu = mtu;
    const sandbox = str(i.sandbox);
    if (sandbox !== undefined) iface.sandbox = sandbox;
    interfaces.push(iface);
  }
  const ips: CniIp[] = [];
  const routes: CniRoute[] = [];
  for (const item of list(raw.ips)) {
    const i = obj(item);
    const address = str(i?.address);
    if (i === undefined || address === undefined) continue;
    const ip: CniIp = { address };
    const gateway = str(i.gateway);
    if (gateway !== undefined) ip.gateway = gateway;
    const index = num(i.interface);
    if (index !== undefined) ip.interface = index;
    ips.push(ip);
  }
  for (const item of list(raw.routes)) {
    const r = route(item);
    if (r !== undefined) routes.push(r);
  }
  // Spec 0.1.0 / 0.2.0: {ip4: {ip, gateway, routes}, ip6: {...}}
  for (const key of ['ip4', 'ip6'] as const) {
    const legacy = obj(raw[key]);
    const address = str(legacy?.ip);
    if (legacy === undefined || address === undefined) continue;
    const ip: CniIp = { address };
    const gateway = str(legacy.gateway);
    if (gateway !== undefined) ip.gateway = gateway;
    ips.push(ip);
    for (const item of list(legacy.routes)) {
      const r = route(item);
      if (r !== undefined) routes.push(r);
    }
  }
  return { cniVersion, interfaces, ips, routes, dns: dns(raw.dns) };
}
