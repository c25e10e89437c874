#!/usr/bin/env node
// Trims the Kubernetes API's OpenAPI document (swagger.json v2 or an OpenAPI v3 document) to the
// definitions reachable from the kinds syncpod reads, keeping only what validation needs (types,
// formats, required fields, map/list shapes); descriptions and everything else are dropped.
// Usage: node scripts/trim-k8s-schema.mjs SPEC.json "LABEL" > src/manifest/k8s-schema.json
// (LABEL says where SPEC came from; it is stored in the output.)
import { readFileSync } from 'node:fs';

const [specPath, label] = process.argv.slice(2);
if (!specPath || !label) {
  process.stderr.write('usage: trim-k8s-schema.mjs SPEC.json LABEL\n');
  process.exit(1);
}
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const defs = spec.definitions ?? spec.components?.schemas;
if (!defs) throw new Error(`${specPath}: no definitions or components.schemas`);

/** The kinds syncpod reads: kind -> definition name and the one apiVersion the API serves it at. */
const ROOTS = {
  Pod: ['io.k8s.api.core.v1.Pod', 'v1'],
  PodTemplate: ['io.k8s.api.core.v1.PodTemplate', 'v1'],
  ReplicationController: ['io.k8s.api.core.v1.ReplicationController', 'v1'],
  Deployment: ['io.k8s.api.apps.v1.Deployment', 'apps/v1'],
  ReplicaSet: ['io.k8s.api.apps.v1.ReplicaSet', 'apps/v1'],
  StatefulSet: ['io.k8s.api.apps.v1.StatefulSet', 'apps/v1'],
  DaemonSet: ['io.k8s.api.apps.v1.DaemonSet', 'apps/v1'],
  Job: ['io.k8s.api.batch.v1.Job', 'batch/v1'],
  CronJob: ['io.k8s.api.batch.v1.CronJob', 'batch/v1'],
};
/** Definitions with their own JSON decoding in the API server (not plain objects). */
const SPECIAL = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { k: 'intOrString' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { k: 'quantity' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { k: 'string', f: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { k: 'string', f: 'date-time' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { k: 'any' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { k: 'any' },
};

const short = (name) => name.replace(/^io\.k8s\.api\./, '').replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '');
const out = {};
const queue = [];
const want = (name) => {
  if (!(name in out) && !queue.includes(name)) queue.push(name);
  return { $: short(name) };
};

function convert(s, where) {
  if (s.$ref) return want(s.$ref.replace(/^#\/(definitions|components\/schemas)\//, ''));
  if (s.allOf && s.allOf.length === 1) return convert(s.allOf[0], where);
  if (s['x-kubernetes-int-or-string']) return { k: 'intOrString' };
  if (s['x-kubernetes-preserve-unknown-fields']) return { k: 'any' };
  switch (s.type) {
    case 'string':
      return s.format === 'byte'
        ? { k: 'string', f: 'byte' }
        : s.format === 'date-time'
          ? { k: 'string', f: 'date-time' }
          : { k: 'string' };
    case 'boolean':
      return { k: 'boolean' };
    case 'integer':
      return { k: 'integer', f: s.format === 'int32' ? 'int32' : 'int64' };
    case 'number':
      return { k: 'number' };
    case 'array':
      return { k: 'array', i: convert(s.items, `${where}[]`) };
    case 'object':
    case undefined: {
      if (s.properties) {
        const p = {};
        for (const key of Object.keys(s.properties).sort()) p[key] = convert(s.properties[key], `${where}.${key}`);
        const o = { k: 'object', p };
        if (s.required?.length) o.r = [...s.required].sort();
        return o;
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object')
        return { k: 'map', v: convert(s.additionalProperties, `${where}{}`) };
      if (s.type === 'object') return { k: 'any' };
      throw new Error(`${where}: cannot convert ${JSON.stringify(s).slice(0, 200)}`);
    }
    default:
      throw new Error(`${where}: unknown type ${s.type}`);
  }
}

const roots = {};
for (const [kind, [name, apiVersion]] of Object.entries(ROOTS)) {
  if (!defs[name]) throw new Error(`${specPath}: no definition ${name}`);
  roots[kind] = { apiVersion, schema: short(name) };
  want(name);
}
while (queue.length > 0) {
  const name = queue.shift();
  if (!defs[name]) throw new Error(`${specPath}: no definition ${name}`);
  out[name] = SPECIAL[name] ?? convert(defs[name], short(name));
  // A workload's status is written by its controller, never read from a manifest: not validated.
  if (Object.values(ROOTS).some(([root]) => root === name) && out[name].p?.status) out[name].p.status = { k: 'any' };
}
// Keep what the roots still reach now that their status is not followed.
const reached = new Set();
const visit = (node) => {
  if (!node || typeof node !== 'object') return;
  if (node.$) {
    if (reached.has(node.$)) return;
    reached.add(node.$);
    return visit(out[Object.keys(out).find((n) => short(n) === node.$)]);
  }
  for (const v of Object.values(node)) visit(v);
};
for (const { schema } of Object.values(roots)) visit({ $: schema });
const definitions = {};
for (const name of Object.keys(out).sort()) if (reached.has(short(name))) definitions[short(name)] = out[name];
process.stdout.write(`${JSON.stringify({ source: label, roots, definitions })}\n`);
