// host-local IPAM ranges as the plugin reads them (ipam.ranges: a list of range sets, each a list of
// {subnet, rangeStart, rangeEnd, gateway}; or the older single ipam.subnet/rangeStart/rangeEnd/
// gateway), their size in assignable addresses, and whether a leased IP falls in one. Pure.
//
// As host-local allocates: from rangeStart (default: the subnet's network address + 1) to rangeEnd
// (default: the last address before the broadcast for IPv4, the last address for IPv6), never the
// gateway (default: network + 1).
import type { Json } from '../cni/types';
import { isObj } from '../json-object';

export interface LeaseRange {
  subnet: string;
  start: bigint;
  end: bigint;
  gateway?: bigint;
  v6: boolean;
}

/** An IPv4 or IPv6 address as a number; undefined when it is neither. */
export function ipToBigInt(ip: string): { n: bigint; v6: boolean } | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) {
    const parts = ip.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { n: parts.reduce((a, p) => (a << 8n) + BigInt(p), 0n), v6: false };
  }
  if (!ip.includes(':')) return undefined;
  const [head, tail, ...rest] = ip.split('::');
  if (rest.length) return undefined;
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return { n: groups.reduce((a, g) => (a << 16n) + BigInt(parseInt(g, 16)), 0n), v6: true };
}

function cidr(text: string): { network: bigint; last: bigint; v6: boolean } | undefined {
  const [addr, bitsText] = text.split('/');
  const ip = addr ? ipToBigInt(addr) : undefined;
  const bits = Number(bitsText);
  const width = ip?.v6 ? 128 : 32;
  if (!ip || !Number.isInteger(bits) || bits < 0 || bits > width) return undefined;
  const hostBits = BigInt(width - bits);
  const network = (ip.n >> hostBits) << hostBits;
  return { network, last: network + (1n << hostBits) - 1n, v6: ip.v6 };
}

function rangeOf(r: { [k: string]: Json }): LeaseRange | undefined {
  if (typeof r.subnet !== 'string') return undefined;
  const c = cidr(r.subnet);
  if (!c) return undefined;
  const opt = (k: string) => (typeof r[k] === 'string' ? ipToBigInt(r[k] as string)?.n : undefined);
  const start = opt('rangeStart') ?? c.network + 1n;
  const end = opt('rangeEnd') ?? (c.v6 ? c.last : c.last - 1n);
  const gateway = opt('gateway') ?? c.network + 1n;
  return { subnet: r.subnet, start, end, gateway, v6: c.v6 };
}

/** The ranges of one host-local ipam section. */
export function parseHostLocalRanges(ipam: { [k: string]: Json }): LeaseRange[] {
  const out: LeaseRange[] = [];
  if (Array.isArray(ipam.ranges)) {
    for (const set of ipam.ranges) {
      if (!Array.isArray(set)) continue;
      for (const r of set)
        if (isObj<Json>(r)) {
          const lr = rangeOf(r);
          if (lr) out.push(lr);
        }
    }
  } else {
    const lr = rangeOf(ipam);
    if (lr) out.push(lr);
  }
  return out;
}

/** How many addresses host-local can hand out from the range. */
export function ipRangeSize(r: LeaseRange): bigint {
  if (r.end < r.start) return 0n;
  const n = r.end - r.start + 1n;
  return r.gateway !== undefined && r.gateway >= r.start && r.gateway <= r.end ? n - 1n : n;
}

export function leaseInRange(ip: string, r: LeaseRange): boolean {
  const a = ipToBigInt(ip);
  return !!a && a.v6 === r.v6 && a.n >= r.start && a.n <= r.end;
}
