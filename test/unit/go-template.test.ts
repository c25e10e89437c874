// -o go-template: Go text/template semantics on the JSON crictl feeds it (numbers as json.Number,
// missingkey=error). Expected outputs are what crictl prints for the same template and data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeGoTemplate } from '../../src/render/go-template';
import { SyncpodError } from '../../src/errors';

const data = {
  status: {
    id: 'abc123',
    metadata: { name: 'app', attempt: 0 },
    state: 'CONTAINER_RUNNING',
    exitCode: 0,
    labels: { 'io.kubernetes.pod.name': 'web', app: 'demo' },
    mounts: [],
    image: { image: 'busybox', annotations: {} },
    resources: { linux: { cpuShares: '2' }, windows: null },
    ips: ['10.0.0.1', '10.0.0.2'],
  },
  info: { pid: 4242, runtimeSpec: { process: { args: ['sh', '-c', 'sleep 1'] } } },
};

test('templates crictl users write give what crictl prints', () => {
  const cases: Array<[string, string]> = [
    ['{{.status.state}}', 'CONTAINER_RUNNING'],
    ['{{.status.metadata.name}}/{{.info.pid}}', 'app/4242'],
    ['{{range $k, $v := .status.labels}}{{$k}}={{$v}} {{end}}', 'app=demo io.kubernetes.pod.name=web '],
    ['{{index .status.labels "io.kubernetes.pod.name"}}', 'web'],
    ['{{range $i, $ip := .status.ips}}{{$i}}:{{$ip}},{{end}}', '0:10.0.0.1,1:10.0.0.2,'],
    ['{{range .info.runtimeSpec.process.args}}[{{.}}]{{end}}', '[sh][-c][sleep 1]'],
    ['{{range .status.mounts}}x{{else}}no mounts{{end}}', 'no mounts'],
    ['{{printf "%s-%v" .status.metadata.name .status.metadata.attempt}}', 'app-0'],
    ['{{printf "%d" .info.pid}}', '%!d(json.Number=4242)'],
    ['{{printf "%5s|%-4s|%q" "ab" "c" .status.id}}', '   ab|c   |"abc123"'],
    ['{{json .status.metadata}}', '{"attempt":0,"name":"app"}\n'],
    [
      '{{if eq .status.state "CONTAINER_RUNNING"}}up{{else if eq .status.state "CONTAINER_EXITED"}}down{{else}}?{{end}}',
      'up',
    ],
    ['{{if and .status.labels (not .status.mounts)}}yes{{end}}', 'yes'],
    ['{{len .status.labels}} {{len .status.mounts}} {{len .status.id}}', '2 0 6'],
    ['{{.status.resources.windows}}|{{.status.image}}', '<no value>|map[annotations:map[] image:busybox]'],
    ['{{.status.ips}}', '[10.0.0.1 10.0.0.2]'],
    ['{{upper .status.state | lower}}', 'container_running'],
    ['{{with .status.metadata}}{{.name}}{{end}} {{- " x" -}} y', 'app xy'],
    ['{{$n := .status.metadata.name}}{{range .status.ips}}{{$n}}@{{.}} {{end}}', 'app@10.0.0.1 app@10.0.0.2 '],
    ['{{/* a comment */}}{{eq .info.pid "4242"}}', 'true'],
    ['{{(index .status.ips 1)}} {{(.status.metadata).name}}', '10.0.0.2 app'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, data), expected, template);
});

test('errors are one line: a missing key, a bad template, an unknown function, an unsupported action', () => {
  const cases: Array<[string, RegExp]> = [
    ['{{.nope}}', /map has no entry for key "nope"/],
    ['{{.status.id', /unclosed action/],
    ['{{frobnicate .status}}', /function "frobnicate" not defined/],
    ['{{range .status.ips}}', /missing \{\{end\}\}/],
    ['{{template "x"}}', /\{\{template\}\} is not supported/],
    ['{{eq .info.pid 4242}}', /incompatible types for comparison/],
  ];
  for (const [template, message] of cases) {
    assert.throws(
      () => executeGoTemplate(template, data),
      (e: Error) => e instanceof SyncpodError && message.test(e.message) && !e.message.includes('\n'),
      template,
    );
  }
});
