#!/usr/bin/env node
// Build-time code generation: proto/runtime/*/api.proto -> src/cri/gen/*.ts.
//
// @grpc/proto-loader reads the proto files (its package definition carries every service, method
// path and message as a descriptor: google.protobuf.DescriptorProto as an object). From it this
// script writes plain descriptor tables (object literals, nothing built at import time) for each CRI
// package, the descriptor types they satisfy, and TypeScript interfaces for the runtime.v1
// messages. `npm run gen` writes the files; test/unit/proto-gen.test.ts calls generateAll() and
// compares with what is committed, so the generated code cannot drift from proto/.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const { loadSync } = createRequire(import.meta.url)('@grpc/proto-loader');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages we generate descriptors for: [proto file, output module, exported constant]. */
export const PACKAGES = [
  { proto: 'proto/runtime/v1/api.proto', out: 'src/cri/gen/runtime-v1.ts', constName: 'runtimeV1' },
  { proto: 'proto/runtime/v1alpha2/api.proto', out: 'src/cri/gen/runtime-v1alpha2.ts', constName: 'runtimeV1alpha2' },
];

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** protoc's json_name rule: drop each underscore and upper-case the character after it. */
export function jsonName(protoName) {
  let out = '';
  let upper = false;
  for (const ch of protoName) {
    if (ch === '_') upper = true;
    else {
      out += upper ? ch.toUpperCase() : ch;
      upper = false;
    }
  }
  return out;
}

/** descriptor.proto's field types -> the scalar names of the tables ('enum'/'message' resolve a type name). */
const DESCRIPTOR_TYPES = {
  TYPE_DOUBLE: 'double',
  TYPE_FLOAT: 'float',
  TYPE_INT64: 'int64',
  TYPE_UINT64: 'uint64',
  TYPE_INT32: 'int32',
  TYPE_FIXED64: 'fixed64',
  TYPE_FIXED32: 'fixed32',
  TYPE_BOOL: 'bool',
  TYPE_STRING: 'string',
  TYPE_BYTES: 'bytes',
  TYPE_UINT32: 'uint32',
  TYPE_SFIXED32: 'sfixed32',
  TYPE_SFIXED64: 'sfixed64',
  TYPE_SINT32: 'sint32',
  TYPE_SINT64: 'sint64',
  TYPE_ENUM: 'enum',
  TYPE_MESSAGE: 'message',
};

/**
 * One proto file read through proto-loader into the model the writers below use:
 * { packageName, messages: [{ rel, fields }], enums: [{ rel, values }], services: [{ name, methods }] },
 * in declaration order (a nested type right after its parent), names package-relative.
 */
export function readPackage(rootDir, file) {
  const definition = loadSync(join(rootDir, file), { keepCase: true });
  const names = Object.keys(definition);
  const packageName = names.map((n) => n.slice(0, n.lastIndexOf('.'))).reduce((a, b) => (a.length <= b.length ? a : b));
  const rel = (full) => {
    if (!full.startsWith(`${packageName}.`)) throw new Error(`${file}: type ${full} is outside package ${packageName}`);
    return full.slice(packageName.length + 1);
  };

  // Every message and enum by full name (nested ones included), and the map-entry types.
  const messageTypes = new Map();
  const enumTypes = new Map();
  const addMessage = (full, d) => {
    messageTypes.set(full, d);
    for (const n of d.nestedType) addMessage(`${full}.${n.name}`, n);
    for (const e of d.enumType) enumTypes.set(`${full}.${e.name}`, e);
  };
  for (const name of names) {
    const entry = definition[name];
    if (entry.format?.endsWith(' DescriptorProto')) addMessage(name, entry.type);
    else if (entry.format?.endsWith(' EnumDescriptorProto')) enumTypes.set(name, entry.type);
  }

  /**
   * A type name as proto-loader gives it in `scope` (a message's full name), resolved as protoc does:
   * innermost scope first. proto-loader gives a method's types by their short name only, so a
   * request or response type nested in a message, or a name that shadows another, would resolve
   * wrongly; proto/ has neither, and test/unit/proto-gen.test.ts checks every resolved reference
   * against protobufjs's own reflection of the same files, so a proto that had one fails there.
   */
  const resolve = (typeName, scope) => {
    if (typeName.startsWith('.')) return typeName.slice(1);
    for (let s = scope; ; s = s.slice(0, s.lastIndexOf('.'))) {
      const candidate = `${s}.${typeName}`;
      if (messageTypes.has(candidate) || enumTypes.has(candidate)) return candidate;
      if (!s.includes('.')) break;
    }
    throw new Error(`${file}: ${scope}: unresolved type ${typeName}`);
  };

  const fieldsOf = (full, d) => {
    if (d.oneofDecl.length) throw new Error(`${full}: oneof is not supported by the codec`);
    return d.field.map((f) => {
      if (f.label === 'LABEL_REQUIRED') throw new Error(`${full}.${f.name}: label required not supported`);
      let type = DESCRIPTOR_TYPES[f.type];
      if (!type) throw new Error(`${full}.${f.name}: unknown type ${f.type}`);
      let ref;
      let map;
      if (type === 'enum' || type === 'message') {
        const target = resolve(f.typeName, full);
        const entry = messageTypes.get(target);
        if (type === 'message' && entry?.options?.mapEntry) {
          // A map<K, V> field: the entry type's key (1) and value (2).
          const [key, value] = entry.field;
          map = DESCRIPTOR_TYPES[key.type];
          type = DESCRIPTOR_TYPES[value.type];
          if (type === 'enum' || type === 'message') ref = rel(resolve(value.typeName, target));
        } else ref = rel(target);
      }
      return {
        name: jsonName(f.name),
        protoName: f.name,
        number: f.number,
        type,
        ref,
        repeated: f.label === 'LABEL_REPEATED' && !map,
        map,
        deprecated: !!f.options?.deprecated,
      };
    });
  };

  const messages = [];
  const enums = [];
  const services = [];
  const visitMessage = (full, d) => {
    if (d.options?.mapEntry) return;
    messages.push({ rel: rel(full), fields: fieldsOf(full, d) });
    for (const e of d.enumType) enums.push(enumOf(`${full}.${e.name}`, e));
    for (const n of d.nestedType) visitMessage(`${full}.${n.name}`, n);
  };
  const enumOf = (full, e) => ({ rel: rel(full), values: Object.fromEntries(e.value.map((v) => [v.name, v.number])) });
  for (const name of names) {
    const entry = definition[name];
    if (entry.format?.endsWith(' DescriptorProto')) visitMessage(name, entry.type);
    else if (entry.format?.endsWith(' EnumDescriptorProto')) enums.push(enumOf(name, entry.type));
    else if (!entry.format) {
      // A service: method name -> its definition (path, streaming, request and response types).
      const methods = Object.entries(entry).map(([methodName, m]) => ({
        name: methodName,
        path: m.path,
        // (a method's types carry their short name; the CRI's are all top-level messages)
        request: rel(resolve(m.requestType.type.name, name)),
        response: rel(resolve(m.responseType.type.name, name)),
        requestStream: !!m.requestStream,
        responseStream: !!m.responseStream,
      }));
      services.push({ name: name.slice(packageName.length + 1), methods });
    }
  }
  return { packageName, messages, enums, services };
}

const q = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function header(sources) {
  return [
    '// GENERATED by scripts/gen-proto.mjs from ' + sources.join(', ') + ' -- do not edit.',
    '// Regenerate with `npm run gen`.',
  ].join('\n');
}

const SCHEMA_TS = `${header(['the descriptor shape in scripts/gen-proto.mjs'])}
// The shape of the descriptor tables in runtime-v1.ts and runtime-v1alpha2.ts.

export type ScalarType =
  | 'double' | 'float' | 'int64' | 'uint64' | 'int32' | 'fixed64' | 'fixed32' | 'bool' | 'string'
  | 'bytes' | 'uint32' | 'sfixed32' | 'sfixed64' | 'sint32' | 'sint64';

export interface FieldDescriptor {
  /** JSON name (lowerCamelCase); also the key in in-memory messages. */
  readonly name: string;
  /** The field name as declared in the .proto file (snake_case). */
  readonly protoName: string;
  readonly number: number;
  /** Scalar type, or 'message' / 'enum' with \`ref\`. For a map field: the value type. */
  readonly type: ScalarType | 'message' | 'enum';
  /** Package-relative message or enum name, e.g. 'PodSandboxConfig' or 'SecurityProfile.ProfileType'. */
  readonly ref?: string;
  readonly repeated?: true;
  /** Set on map fields: the key type. */
  readonly map?: ScalarType;
  readonly deprecated?: true;
}

export interface MessageDescriptor {
  /** Fields in declaration order (protobuf JSON output follows it). */
  readonly fields: readonly FieldDescriptor[];
}

export interface EnumDescriptor {
  /** Value name -> number, in declaration order. */
  readonly values: Readonly<Record<string, number>>;
}

export interface MethodDescriptor {
  /** gRPC path, e.g. '/runtime.v1.RuntimeService/ListPodSandbox'. */
  readonly path: string;
  readonly request: string;
  readonly response: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

export interface ServiceDescriptor {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
}

export interface ProtoPackage {
  /** Protobuf package, e.g. 'runtime.v1'. */
  readonly package: string;
  readonly messages: Readonly<Record<string, MessageDescriptor>>;
  readonly enums: Readonly<Record<string, EnumDescriptor>>;
  readonly services: Readonly<Record<string, ServiceDescriptor>>;
}
`;

function descriptorModule(file, constName, model) {
  const { packageName, messages, enums, services } = model;
  const out = [
    header([file]),
    `// Descriptor tables for package ${packageName}: plain data, nothing is built at import time.`,
    '',
    "import type { ProtoPackage } from './schema';",
    '',
  ];
  out.push(`export const ${constName}: ProtoPackage = {`);
  out.push(`  package: ${q(packageName)},`);
  out.push('  messages: {');
  for (const m of messages) {
    const name = m.rel;
    if (!m.fields.length) {
      out.push(`    ${q(name)}: { fields: [] },`);
      continue;
    }
    out.push(`    ${q(name)}: {`, '      fields: [');
    for (const i of m.fields) {
      const parts = [`name: ${q(i.name)}`, `protoName: ${q(i.protoName)}`, `number: ${i.number}`, `type: ${q(i.type)}`];
      if (i.ref) parts.push(`ref: ${q(i.ref)}`);
      if (i.repeated) parts.push('repeated: true');
      if (i.map) parts.push(`map: ${q(i.map)}`);
      if (i.deprecated) parts.push('deprecated: true');
      out.push(`        { ${parts.join(', ')} },`);
    }
    out.push('      ],', '    },');
  }
  out.push('  },');
  out.push('  enums: {');
  for (const e of enums) {
    const vals = Object.entries(e.values)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    out.push(`    ${q(e.rel)}: { values: { ${vals} } },`);
  }
  out.push('  },');
  out.push('  services: {');
  for (const s of services) {
    out.push(`    ${s.name}: {`, '      methods: {');
    for (const m of s.methods) {
      out.push(
        `        ${m.name}: { path: ${q(m.path)}, request: ${q(m.request)}, ` +
          `response: ${q(m.response)}, requestStream: ${m.requestStream}, responseStream: ${m.responseStream} },`,
      );
    }
    out.push('      },', '    },');
  }
  out.push('  },');
  out.push('};', '');
  return out.join('\n');
}

/** TypeScript name of a package-relative type: nested names joined with '_'. */
const tsName = (rel) => rel.replace(/\./g, '_');

function tsScalar(t) {
  if (INT64.has(t)) return 'string';
  if (t === 'string') return 'string';
  if (t === 'bool') return 'boolean';
  if (t === 'bytes') return 'Uint8Array';
  return 'number';
}

function typesModule(file, model) {
  const { packageName, messages, enums, services } = model;
  const out = [
    header([file]),
    `// In-memory shapes of the ${packageName} messages (see src/cri/codec.ts for the mapping):`,
    '// keys are JSON names; 64-bit integers are decimal strings; enums are value names; bytes are',
    '// Uint8Array (Buffer when decoded); absent sub-messages are undefined, every other field is',
    '// filled with its default when decoded.',
    '',
  ];
  for (const e of enums) {
    const names = Object.keys(e.values).map(q);
    out.push(`export type ${tsName(e.rel)} = ${names.join(' | ')};`);
  }
  out.push('');
  for (const m of messages) {
    const name = tsName(m.rel);
    if (!m.fields.length) {
      out.push(`export interface ${name} {}`, '');
      continue;
    }
    out.push(`export interface ${name} {`);
    for (const i of m.fields) {
      const base = i.type === 'message' || i.type === 'enum' ? tsName(i.ref) : tsScalar(i.type);
      if (i.deprecated) out.push('  /** @deprecated */');
      if (i.map) out.push(`  ${i.name}: Record<string, ${base}>;`);
      else if (i.repeated) out.push(`  ${i.name}: ${base}[];`);
      else if (i.type === 'message') out.push(`  ${i.name}?: ${base};`);
      else out.push(`  ${i.name}: ${base};`);
    }
    out.push('}', '');
  }
  out.push('/** Every message by its name, for typed encode/decode. */');
  out.push('export interface MessageTypes {');
  for (const m of messages) out.push(`  ${q(m.rel)}: ${tsName(m.rel)};`);
  out.push('}', '');
  for (const s of services) {
    out.push(
      `/** ${packageName}.${s.name}: method -> [request, response] (streaming responses arrive one message at a time). */`,
    );
    out.push(`export interface ${s.name}Methods {`);
    for (const m of s.methods) out.push(`  ${m.name}: [${tsName(m.request)}, ${tsName(m.response)}];`);
    out.push('}', '');
  }
  out.push('/** What encode accepts: any field may be left out (proto3 defaults apply). */');
  out.push('export type DeepPartial<T> = T extends Uint8Array');
  out.push('  ? T');
  out.push('  : T extends readonly (infer E)[]');
  out.push('    ? DeepPartial<E>[]');
  out.push('    : T extends object');
  out.push('      ? { [K in keyof T]?: DeepPartial<T[K]> }');
  out.push('      : T;');
  out.push('');
  return out.join('\n');
}

/** Generate every file; returns { relativePath: content }. Reads proto/ under rootDir, writes nothing. */
export function generateAll(rootDir = ROOT) {
  const files = { 'src/cri/gen/schema.ts': SCHEMA_TS };
  for (const p of PACKAGES) {
    const model = readPackage(rootDir, p.proto);
    files[p.out] = descriptorModule(p.proto, p.constName, model);
    if (model.packageName === 'runtime.v1') files['src/cri/gen/types.ts'] = typesModule(p.proto, model);
  }
  return files;
}

function main() {
  const files = generateAll(ROOT);
  for (const [rel, content] of Object.entries(files)) {
    const path = join(ROOT, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    process.stderr.write(`gen-proto: wrote ${relative(process.cwd(), path) || path}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
