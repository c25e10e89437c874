// The generated descriptor tables and types: they match what scripts/gen-proto.mjs makes from
// proto/ today, and they agree with protobufjs' own reading of the same proto files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { runtimeV1alpha2 } from '../../src/cri/gen/runtime-v1alpha2';
import type { ProtoPackage } from '../../src/cri/gen/schema';

const ROOT = join(__dirname, '..', '..');

test('regenerating from proto/ reproduces the committed src/cri/gen files', async () => {
  const gen = await import(pathToFileURL(join(ROOT, 'scripts', 'gen-proto.mjs')).href);
  const files: Record<string, string> = gen.generateAll(ROOT);
  assert.deepEqual(Object.keys(files).sort(), [
    'src/cri/gen/runtime-v1.ts',
    'src/cri/gen/runtime-v1alpha2.ts',
    'src/cri/gen/schema.ts',
    'src/cri/gen/types.ts',
  ]);
  for (const [rel, content] of Object.entries(files)) {
    assert.ok(readFileSync(join(ROOT, rel), 'utf8') === content, `${rel} is stale: run npm run gen`);
  }
});

const packages: [ProtoPackage, string][] = [
  [runtimeV1, 'proto/runtime/v1/api.proto'],
  [runtimeV1alpha2, 'proto/runtime/v1alpha2/api.proto'],
];

for (const [desc, file] of packages) {
  test(`${desc.package} descriptors agree with protobufjs reflection of ${file}`, () => {
    const root = protobuf.loadSync(join(ROOT, file));
    root.resolveAll();
    const ns = root.lookup(desc.package) as protobuf.Namespace;
    const pbMessages: protobuf.Type[] = [];
    const pbEnums: protobuf.Enum[] = [];
    const walk = (n: protobuf.NamespaceBase) => {
      for (const x of n.nestedArray) {
        if (x instanceof protobuf.Type) pbMessages.push(x);
        if (x instanceof protobuf.Enum) pbEnums.push(x);
        if (x instanceof protobuf.Namespace || x instanceof protobuf.Type) walk(x as protobuf.NamespaceBase);
      }
    };
    walk(ns);
    const rel = (t: protobuf.ReflectionObject) => t.fullName.slice(desc.package.length + 2);
    assert.deepEqual(Object.keys(desc.messages).sort(), pbMessages.map(rel).sort());
    assert.deepEqual(Object.keys(desc.enums).sort(), pbEnums.map(rel).sort());
    for (const t of pbMessages) {
      const ours = desc.messages[rel(t)]!.fields;
      // protobufjs camel-cases names the way protoc makes JSON names
      assert.deepEqual(
        ours.map((f) => [f.name, f.number]),
        t.fieldsArray.map((f) => [f.name, f.id]),
        `${rel(t)} fields`,
      );
      for (const [i, f] of t.fieldsArray.entries()) {
        const o = ours[i]!;
        const ref = f.resolvedType ? rel(f.resolvedType) : undefined;
        assert.equal(o.ref, ref, `${rel(t)}.${f.name} type`);
        if (!ref) assert.equal(o.type, f.type, `${rel(t)}.${f.name} type`);
        assert.equal(o.map, f.map ? (f as unknown as protobuf.MapField).keyType : undefined, `${rel(t)}.${f.name} map`);
        assert.equal(o.repeated === true, f.repeated && !f.map, `${rel(t)}.${f.name} repeated`);
      }
    }
    for (const e of pbEnums)
      assert.deepEqual(Object.entries(desc.enums[rel(e)]!.values), Object.entries(e.values), rel(e));
    for (const [svcName, svc] of Object.entries(desc.services)) {
      const pbSvc = ns.lookup(svcName) as protobuf.Service;
      assert.deepEqual(
        Object.keys(svc.methods),
        pbSvc.methodsArray.map((m) => m.name),
        svcName,
      );
      for (const m of pbSvc.methodsArray) {
        const o = svc.methods[m.name]!;
        assert.equal(o.path, `/${desc.package}.${svcName}/${m.name}`);
        assert.equal(o.request, rel(m.resolvedRequestType!));
        assert.equal(o.response, rel(m.resolvedResponseType!));
        assert.equal(o.responseStream, !!m.responseStream, `${m.name} streaming`);
        assert.equal(o.requestStream, !!m.requestStream, `${m.name} streaming`);
      }
    }
  });
}

test('the gRPC paths and names kubelet and crictl use are there', () => {
  const cases: [ProtoPackage, string, string, string][] = [
    [runtimeV1, 'RuntimeService', 'ListPodSandbox', '/runtime.v1.RuntimeService/ListPodSandbox'],
    [runtimeV1, 'RuntimeService', 'GetContainerEvents', '/runtime.v1.RuntimeService/GetContainerEvents'],
    [runtimeV1, 'ImageService', 'PullImage', '/runtime.v1.ImageService/PullImage'],
    [runtimeV1alpha2, 'RuntimeService', 'Version', '/runtime.v1alpha2.RuntimeService/Version'],
    [runtimeV1alpha2, 'ImageService', 'ImageFsInfo', '/runtime.v1alpha2.ImageService/ImageFsInfo'],
  ];
  for (const [desc, svc, method, path] of cases) assert.equal(desc.services[svc]?.methods[method]?.path, path);
  assert.equal(runtimeV1.services.RuntimeService!.methods.GetContainerEvents!.responseStream, true);
  const names = (m: string) => runtimeV1.messages[m]!.fields.map((f) => `${f.protoName}->${f.name}`);
  assert.ok(names('PodSandboxConfig').includes('log_directory->logDirectory'));
  assert.ok(names('Mount').includes('uidMappings->uidMappings'));
  assert.ok(names('PsiData').includes('Avg10->Avg10'));
});
