// syncpod against the crictl binary (v1.37.0, built by `npm run anchors`) on the same containerd:
// `-o go-template` on a table of templates (Go's truth, and/or, printf verbs and widths, index,
// range, errors) and the list tables with wide (CJK) names, byte for byte and exit code for exit code.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, crictlBinary, labRuntime, startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { syncpod } from './helpers';
import { kubeletSandboxConfig } from './cri-pods';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
let crictlBin: string;
const ids = { pod: '', app: '' };
/**
 * CRI-O v1.34 on this host cannot run a pod or container whose name or namespace holds a non-ASCII
 * character (RunPodSandbox/CreateContainer fail: "write child: broken pipe"; kubelet never sends one,
 * names are DNS labels). On CRI-O the same templates and tables are compared with ASCII names; the
 * wide-rune column widths are syncpod's renderer, checked on both containerd runtimes.
 */
const WIDE = labRuntime().kind !== 'crio';
const POD = WIDE
  ? { name: 'ウェブ名前-pod', namespace: '名前空間', uid: 'uid-crictl-templates' }
  : { name: 'web-pod', namespace: 'name-space', uid: 'uid-crictl-templates' };
const APP = WIDE ? 'アプリ' : 'app';

const sandboxConfig = () =>
  kubeletSandboxConfig(lab, POD, { labels: { tier: 'front' }, annotations: { note: 'a\u0001b "quoted" <html>' } });

/** crictl on the lab's socket, with an empty crictl.yaml of its own (none of the machine's is read). */
function crictl(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const config = path.join(lab.dir, 'crictl-anchor.yaml');
  if (!fs.existsSync(config)) fs.writeFileSync(config, '');
  const r = spawnSync(crictlBin, ['--runtime-endpoint', lab.endpoint, '--image-endpoint', lab.endpoint, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CRI_CONFIG_FILE: config },
    timeout: 30000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const run = (args: string[]) => syncpod(args, { env: lab.env });

before(async () => {
  crictlBin = crictlBinary();
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  const sb = sandboxConfig();
  ids.pod = (await rt.call('RunPodSandbox', { config: sb }, { timeoutMs: 60000 })).podSandboxId;
  fs.mkdirSync(path.join(sb.logDirectory, APP), { recursive: true });
  ids.app = (
    await rt.call(
      'CreateContainer',
      {
        podSandboxId: ids.pod,
        config: {
          metadata: { name: APP, attempt: 0 },
          image: { image: BUSYBOX_IMAGE, userSpecifiedImage: BUSYBOX_IMAGE },
          command: ['sh', '-c', 'sleep 3600'],
          logPath: `${APP}/0.log`,
          labels: { 'io.kubernetes.container.name': APP, 'io.kubernetes.pod.uid': POD.uid },
        },
        sandboxConfig: sb,
      },
      { timeoutMs: 30000 },
    )
  ).containerId;
  await rt.call('StartContainer', { containerId: ids.app }, { timeoutMs: 30000 });
});

after(async () => {
  rt?.close();
  await lab?.stop();
});

/** Templates run on `inspectp POD` and `inspect CONTAINER` by both tools. */
const TEMPLATES = [
  '{{.status.metadata.name}}|{{.status.state}}',
  '{{if 0}}T{{else}}F{{end}} {{if 0.0}}T{{else}}F{{end}} {{if ""}}T{{else}}F{{end}}',
  '{{if .status.metadata.attempt}}attempt is a json.Number: true{{end}}',
  '{{if len .status.labels}}labels{{end}} {{if not (len .status.annotations)}}none{{else}}some{{end}}',
  '{{and .status.labels (index .status.labels "tier")}}',
  '{{or .status.nope_is_not_read (index .status.labels "tier")}}',
  '{{and 0 (index .status.labels "no-such-label")}}|{{or 1 (index 1 2)}}',
  '{{range $k, $v := .status.labels}}{{$k}}={{$v}};{{end}}',
  '{{index .status.labels "constructor"}}|{{index .status.labels "__proto__"}}|{{index .status.labels "toString"}}',
  '{{printf "%q" .status.metadata.name}}',
  '{{printf "%q|%+q|%x|% X" (index .status.annotations "note") .status.metadata.name "ab" "ab"}}',
  '{{printf "%q %c %U %d %x %o %b" 65 233 128512 -42 255 8 5}}',
  '{{printf "%999999999d" 5}}',
  '{{printf "%*d|%-*d|%.*f" 5 1 5 2 2 3.14159}}',
  '{{printf "%*d" 99999999 5}}',
  '{{printf "%5.1f|%08.3f|%+.2e|%g|%g|%v" 3.14159 -3.14159 12345.678 1000000.0 0.0001 1e21}}',
  '{{printf "%.0f %.0f %.2f" 0.5 2.5 1.005}}',
  '{{printf "%d" .status.metadata.attempt}}|{{printf "%s" .status.metadata.attempt}}',
  '{{printf "%[2]s-%[1]s" "a" "b"}}|{{printf "%d %d" 1}}|{{printf "%d" 1 2}}|{{printf "%!"}}',
  '{{printf "%T %T %T %T %T" 1 1.5 .status.metadata.attempt .status.labels (index .status.labels "tier")}}',
  '{{printf "%v|%s|%10s|%-10s|%.2s" .status.metadata .status.state "ab" "cd" "名前空間"}}',
  '{{print 1 2 "x" 3}}|{{println "a" 1}}',
  '{{len .status.metadata.name}} {{slice .status.metadata.name 0 3}} {{index .status.metadata.name 0}}',
  '{{range $i := 3}}{{$i}}{{end}} {{range $i, $e := .status.labels}}{{if eq $i "tier"}}{{break}}{{end}}{{$i}} {{end}}',
  '{{eq .status.metadata.attempt "0"}} {{lt "a" "b"}} {{ge 2 2}} {{eq 1 2 1}}',
  '{{json .status.metadata}}{{json (index .status.annotations "note")}}',
  '{{upper .status.state | lower}} {{title "hello wide-world"}}',
  '{{"a\\tb\\x41"}} {{\'x\'}} {{0x10}} {{1e3}}',
  '{{.status.no_such_field}}',
  '{{eq 1 1.0}}',
  '{{lt .status.metadata.attempt 1}}',
  '{{index .status.labels 1}}',
  '{{nosuchfunc 1}}',
];

describe('-o go-template: syncpod prints what crictl 1.37 prints', () => {
  for (const [what, args] of [
    ['inspectp', () => ['inspectp', ids.pod]],
    ['inspect', () => ['inspect', ids.app]],
  ] as const) {
    test(`${what}: ${TEMPLATES.length} templates, output and success alike`, async () => {
      const differences: string[] = [];
      for (const template of TEMPLATES) {
        const [verb, id] = args();
        const want = crictl([verb, '-o', 'go-template', '--template', template, id]);
        const got = await run([verb, '-o', 'go-template', '--template', template, id]);
        const wantOk = want.code === 0;
        const gotOk = got.code === 0;
        if (wantOk !== gotOk || (wantOk && want.stdout !== got.stdout))
          differences.push(
            `${template}\n  crictl (${want.code}): ${JSON.stringify(want.stdout || want.stderr.trim())}\n  syncpod (${got.code}): ${JSON.stringify(got.stdout || got.stderr.trim())}`,
          );
        if (!gotOk) assert.equal(got.stderr.trim().split('\n').length, 1, `one error line for ${template}`);
      }
      assert.deepEqual(differences, []);
    });
  }
});

describe('tables with wide (CJK) names: columns as Go’s tabwriter counts them (one per rune)', () => {
  // CREATED is a relative time ("41 seconds ago") that each tool reads from its own clock at its own
  // start (syncpod starts after crictl, by more than a second on a loaded machine): a count of
  // seconds is compared by its width only, so the columns after it must still line up byte for
  // byte. Other differences (a count that gains a digit, "1 second ago") are taken again.
  const seconds = (table: string) =>
    table.replace(/\b(\d+)( seconds ago)/g, (_, n: string, rest: string) => '#'.repeat(n.length) + rest);
  for (const args of [['pods'], ['ps', '-a'], ['pods', '--namespace', POD.namespace]]) {
    test(`syncpod ${args.join(' ')} equals crictl ${args.join(' ')}`, async () => {
      let last = '';
      for (let attempt = 0; attempt < 5; attempt++) {
        const want = crictl(args);
        const got = await run(args);
        assert.equal(want.code, 0, want.stderr);
        assert.equal(got.code, 0, got.stderr);
        if (seconds(got.stdout) === seconds(want.stdout)) {
          assert.ok(want.stdout.includes(POD.name) || want.stdout.includes(APP), want.stdout);
          return;
        }
        last = `crictl:\n${want.stdout}\nsyncpod:\n${got.stdout}`;
      }
      assert.fail(`the tables differ\n${last}`);
    });
  }
});
