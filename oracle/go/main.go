// syncpod's kubelet oracle: runs kubelet's own kuberuntime code (GetPods, GetPodStatus, SyncPod)
// for scenarios read as JSON lines on stdin, against kubelet's fake CRI runtime and image
// services (k8s.io/cri-api/pkg/apis/testing), and writes one JSON line per scenario: the runtime
// state the scenario resolved to (labels, annotations and hashes as kubelet writes them) and every
// CRI call SyncPod made, in order. Built per kubelet release by scripts/oracle-build.ts.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
)

// Scenario is one case: the pod, what the runtime holds, the prober's results and the gates.
type Scenario struct {
	Name       string            `json:"name"`
	Gates      map[string]bool   `json:"gates"`
	Pod        *v1.Pod           `json:"pod"`
	Sandboxes  []SandboxIn       `json:"sandboxes"`
	Containers []ContainerIn     `json:"containers"`
	Images     []string          `json:"images"`
	Liveness   map[string]string `json:"liveness"`
	Startup    map[string]string `json:"startup"`
	// MemoryUsage is the pod's memory usage in bytes as kubelet's stats report it (default 0):
	// kubelet lowers a memory limit in place only above the usage.
	MemoryUsage uint64 `json:"memoryUsage"`
}

// SandboxIn is a sandbox as the runtime reports it; the labels are kubelet's for the pod.
type SandboxIn struct {
	ID        string `json:"id"`
	Attempt   uint32 `json:"attempt"`
	State     string `json:"state"`
	CreatedAt int64  `json:"createdAt"`
	IP        string `json:"ip"`
	// Network namespace mode: POD, NODE (default: the pod's hostNetwork).
	Network string `json:"network"`
}

// ContainerIn is a container as the runtime reports it. Hash: "" for the hash of the pod's
// container of that name, or the hexadecimal hash kubelet would have written.
type ContainerIn struct {
	ID           string     `json:"id"`
	Sandbox      string     `json:"sandbox"`
	Name         string     `json:"name"`
	Attempt      uint32     `json:"attempt"`
	Image        string     `json:"image"`
	State        string     `json:"state"`
	CreatedAt    int64      `json:"createdAt"`
	StartedAt    int64      `json:"startedAt"`
	FinishedAt   int64      `json:"finishedAt"`
	ExitCode     int32      `json:"exitCode"`
	Reason       string     `json:"reason"`
	Hash         string     `json:"hash"`
	RestartCount int        `json:"restartCount"`
	Resources    *Resources `json:"resources"`
}

// Resources are the Linux resources a runtime reports for a container.
type Resources struct {
	CPUShares          int64 `json:"cpuShares"`
	CPUQuota           int64 `json:"cpuQuota"`
	CPUPeriod          int64 `json:"cpuPeriod"`
	MemoryLimitInBytes int64 `json:"memoryLimitInBytes"`
}

// Call is one CRI call SyncPod made.
type Call struct {
	Op        string     `json:"op"`
	Sandbox   string     `json:"sandbox,omitempty"`
	Container string     `json:"container,omitempty"`
	ID        string     `json:"id,omitempty"`
	Attempt   *uint32    `json:"attempt,omitempty"`
	Image     string     `json:"image,omitempty"`
	Resources *Resources `json:"resources,omitempty"`
}

// Result is the oracle's answer for one scenario.
type Result struct {
	Name       string            `json:"name"`
	Sandboxes  []json.RawMessage `json:"sandboxes"`
	Containers []json.RawMessage `json:"containers"`
	Calls      []Call            `json:"calls"`
	Actions    string            `json:"actions,omitempty"`
	Gates      map[string]bool   `json:"gates"`
	Error      string            `json:"error,omitempty"`
	// Panic: a panic in one of kubelet's goroutines during this scenario (kubelet recovers it with
	// HandleCrash, which panics again in a real kubelet: the process ends). The calls are those its
	// code made; SyncPod carried on without the goroutine that panicked.
	Panic string `json:"panic,omitempty"`
}

// recordingRuntime is kubelet's fake runtime service, recording the calls that change state.
// Kubelet stops a pod's containers from one goroutine each, so recording takes a lock (without
// it, two StopContainer calls at once could leave one record).
type recordingRuntime struct {
	*apitest.FakeRuntimeService
	mu    sync.Mutex
	calls []Call
	names map[string]string
}

func (r *recordingRuntime) record(c Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
}

func (r *recordingRuntime) nameOf(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[id]
}

func (r *recordingRuntime) RunPodSandbox(ctx context.Context, config *runtimeapi.PodSandboxConfig, handler string) (string, error) {
	a := config.GetMetadata().GetAttempt()
	id, err := r.FakeRuntimeService.RunPodSandbox(ctx, config, handler)
	r.record(Call{Op: "RunPodSandbox", Attempt: &a, Sandbox: id})
	return id, err
}

func (r *recordingRuntime) StopPodSandbox(ctx context.Context, id string) error {
	r.record(Call{Op: "StopPodSandbox", Sandbox: id})
	return r.FakeRuntimeService.StopPodSandbox(ctx, id)
}

func (r *recordingRuntime) RemovePodSandbox(ctx context.Context, id string) error {
	r.record(Call{Op: "RemovePodSandbox", Sandbox: id})
	return r.FakeRuntimeService.RemovePodSandbox(ctx, id)
}

func (r *recordingRuntime) CreateContainer(ctx context.Context, sandbox string, config *runtimeapi.ContainerConfig, sc *runtimeapi.PodSandboxConfig) (string, error) {
	id, err := r.FakeRuntimeService.CreateContainer(ctx, sandbox, config, sc)
	a := config.GetMetadata().GetAttempt()
	r.mu.Lock()
	r.names[id] = config.GetMetadata().GetName()
	r.mu.Unlock()
	r.record(Call{Op: "CreateContainer", Sandbox: sandbox, Container: config.GetMetadata().GetName(), Attempt: &a, Image: config.GetImage().GetImage(), ID: id})
	return id, err
}

func (r *recordingRuntime) StartContainer(ctx context.Context, id string) error {
	r.record(Call{Op: "StartContainer", Container: r.nameOf(id), ID: id})
	return r.FakeRuntimeService.StartContainer(ctx, id)
}

func (r *recordingRuntime) StopContainer(ctx context.Context, id string, timeout int64) error {
	r.record(Call{Op: "StopContainer", Container: r.nameOf(id), ID: id})
	return r.FakeRuntimeService.StopContainer(ctx, id, timeout)
}

func (r *recordingRuntime) RemoveContainer(ctx context.Context, id string) error {
	r.record(Call{Op: "RemoveContainer", Container: r.nameOf(id), ID: id})
	return r.FakeRuntimeService.RemoveContainer(ctx, id)
}

func (r *recordingRuntime) UpdateContainerResources(ctx context.Context, id string, res *runtimeapi.ContainerResources) error {
	c := Call{Op: "UpdateContainerResources", Container: r.nameOf(id), ID: id}
	if l := res.GetLinux(); l != nil {
		c.Resources = &Resources{CPUShares: l.CpuShares, CPUQuota: l.CpuQuota, CPUPeriod: l.CpuPeriod, MemoryLimitInBytes: l.MemoryLimitInBytes}
	}
	r.record(c)
	return r.FakeRuntimeService.UpdateContainerResources(ctx, id, res)
}

// recordingImages is kubelet's fake image service, recording pulls.
type recordingImages struct {
	*apitest.FakeImageService
	rt *recordingRuntime
}

func (i *recordingImages) PullImage(ctx context.Context, image *runtimeapi.ImageSpec, auth *runtimeapi.AuthConfig, sc *runtimeapi.PodSandboxConfig) (string, error) {
	i.rt.record(Call{Op: "PullImage", Image: image.GetImage()})
	return i.FakeImageService.PullImage(ctx, image, auth, sc)
}

var defaultGates map[string]bool

// kubeletRelease is set at build time (-ldflags -X main.kubeletRelease=v1.37.2).
var kubeletRelease = "unknown"

var dependsRE = regexp.MustCompile(`(\w+) is enabled, but depends on features that are disabled: \[([\w ]*)\]`)

// setGates sets the scenario's gates over the release's defaults. Kubelet refuses to start with a
// gate on whose dependencies are off (1.35+): a gate the scenario turns on gets its dependencies
// turned on (RestartAllContainersOnContainerExits needs NodeDeclaredFeatures in 1.35), unless the
// scenario turned one off; a gate left on by default whose dependency the scenario turned off is
// turned off. The gates that differ from the defaults are returned, for syncpod's --feature-gates.
func setGates(gates map[string]bool) (map[string]bool, error) {
	want := map[string]bool{}
	for k, v := range defaultGates {
		want[k] = v
	}
	// A locked or unknown gate is refused here: a refused SetFromMap leaves the value in the
	// process's gate set, and every later scenario would be refused with it.
	specs := utilfeature.DefaultMutableFeatureGate.GetAll()
	for k, v := range gates {
		spec, ok := specs[featuregate.Feature(k)]
		if !ok {
			return nil, fmt.Errorf("unrecognized feature gate: %s", k)
		}
		if spec.LockToDefault && spec.Default != v {
			return nil, fmt.Errorf("cannot set feature gate %s to %v, feature is locked to %v", k, v, spec.Default)
		}
		if !spec.LockToDefault {
			want[k] = v
		}
	}
	for i := 0; ; i++ {
		err := utilfeature.DefaultMutableFeatureGate.SetFromMap(want)
		if err == nil {
			break
		}
		found := dependsRE.FindAllStringSubmatch(err.Error(), -1)
		if len(found) == 0 || i > 20 {
			return nil, err
		}
		for _, m := range found {
			if on, asked := gates[m[1]]; asked && on {
				enabled := false
				for _, dep := range strings.Fields(m[2]) {
					if v, set := gates[dep]; set && !v {
						continue
					}
					if spec := specs[featuregate.Feature(dep)]; spec.LockToDefault {
						continue
					}
					want[dep], enabled = true, true
				}
				if enabled {
					continue
				}
			}
			want[m[1]] = false
		}
	}
	changed := map[string]bool{}
	for k, v := range want {
		if defaultGates[k] != v {
			changed[k] = v
		}
	}
	return changed, nil
}

// GateSpec is a gate as the release defines it.
type GateSpec struct {
	Default    bool   `json:"default"`
	Locked     bool   `json:"locked"`
	PreRelease string `json:"preRelease"`
}

func gateSpecs() map[string]GateSpec {
	out := map[string]GateSpec{}
	for name, spec := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		out[string(name)] = GateSpec{Default: spec.Default, Locked: spec.LockToDefault, PreRelease: string(spec.PreRelease)}
	}
	return out
}

func findContainer(pod *v1.Pod, name string) *v1.Container {
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			c := v1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
			return &c
		}
	}
	return nil
}

var sandboxStates = map[string]runtimeapi.PodSandboxState{"SANDBOX_READY": runtimeapi.PodSandboxState_SANDBOX_READY, "SANDBOX_NOTREADY": runtimeapi.PodSandboxState_SANDBOX_NOTREADY}
var containerStates = map[string]runtimeapi.ContainerState{
	"CONTAINER_CREATED": runtimeapi.ContainerState_CONTAINER_CREATED,
	"CONTAINER_RUNNING": runtimeapi.ContainerState_CONTAINER_RUNNING,
	"CONTAINER_EXITED":  runtimeapi.ContainerState_CONTAINER_EXITED,
	"CONTAINER_UNKNOWN": runtimeapi.ContainerState_CONTAINER_UNKNOWN,
}

// actuatedFrom is the record kubelet's actuated checkpoint would hold for a container the runtime
// reports with these resources: the spec when the report is what kubelet writes for the spec
// (a limit the container lacks taken from the pod-level one with PodLevelResources, a missing CPU
// request from the limit), else the spec with the reported CPU request, CPU limit and memory limit.
func actuatedFrom(pod *v1.Pod, c *v1.Container, r *Resources) v1.ResourceRequirements {
	out := *c.Resources.DeepCopy()
	if r == nil {
		return out
	}
	req := v1.ResourceList{}
	lim := v1.ResourceList{}
	for k, v := range out.Requests {
		req[k] = v
	}
	for k, v := range out.Limits {
		lim[k] = v
	}
	cpuLimit := c.Resources.Limits.Cpu().MilliValue()
	memLimit := c.Resources.Limits.Memory().Value()
	if pr := podResources(pod); gateOn("PodLevelResources") && pr != nil && (pr.Limits != nil || pr.Requests != nil) {
		if cpuLimit == 0 {
			cpuLimit = pr.Limits.Cpu().MilliValue()
		}
		if memLimit == 0 {
			memLimit = pr.Limits.Memory().Value()
		}
	}
	wantReq := cpuLimit
	if _, ok := c.Resources.Requests[v1.ResourceCPU]; ok {
		wantReq = c.Resources.Requests.Cpu().MilliValue()
	}
	if milliToShares(wantReq) != r.CPUShares {
		req[v1.ResourceCPU] = *resource.NewMilliQuantity(r.CPUShares*1000/1024, resource.DecimalSI)
	}
	period := r.CPUPeriod
	if period == 0 {
		period = 100000
	}
	if milliToQuota(cpuLimit, period) != r.CPUQuota {
		if r.CPUQuota > 0 {
			lim[v1.ResourceCPU] = *resource.NewMilliQuantity(r.CPUQuota*1000/period, resource.DecimalSI)
		} else {
			delete(lim, v1.ResourceCPU)
		}
	}
	if memLimit != r.MemoryLimitInBytes {
		if r.MemoryLimitInBytes > 0 {
			lim[v1.ResourceMemory] = *resource.NewQuantity(r.MemoryLimitInBytes, resource.BinarySI)
		} else {
			delete(lim, v1.ResourceMemory)
		}
	}
	out.Requests, out.Limits = req, lim
	if len(req) == 0 {
		out.Requests = nil
	}
	if len(lim) == 0 {
		out.Limits = nil
	}
	return out
}

// gateOn reports a gate by name; false where the release does not have it (the driver is shared
// by every minor).
func gateOn(name string) bool {
	f := featuregate.Feature(name)
	if _, ok := utilfeature.DefaultMutableFeatureGate.GetAll()[f]; !ok {
		return false
	}
	return utilfeature.DefaultFeatureGate.Enabled(f)
}

func milliToShares(m int64) int64 {
	if m == 0 {
		return 2
	}
	s := m * 1024 / 1000
	if s < 2 {
		return 2
	}
	if s > 262144 {
		return 262144
	}
	return s
}

func milliToQuota(m, period int64) int64 {
	if m == 0 {
		return 0
	}
	q := m * period / 1000
	if q < 1000 {
		return 1000
	}
	return q
}

// asStored is the pod as the API server admits it: defaulted, converted to the internal type,
// the fields of disabled gates dropped, converted back and defaulted again.
func asStored(in *v1.Pod) (*v1.Pod, error) {
	legacyscheme.Scheme.Default(in)
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(in, internal, nil); err != nil {
		return nil, fmt.Errorf("pod: %v", err)
	}
	podutil.DropDisabledPodFields(internal, nil)
	out := &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		return nil, fmt.Errorf("pod: %v", err)
	}
	legacyscheme.Scheme.Default(out)
	return out, nil
}

var (
	panicsMu sync.Mutex
	panics   []string
)

// catchGoroutinePanics makes kubelet's HandleCrash record a panic instead of ending the process
// (utilruntime.ReallyCrash off, one more PanicHandler). PanicHandlers take (interface{}) up to
// 1.30 and (context.Context, interface{}) from 1.31: the handler is made for the release's type.
func catchGoroutinePanics() {
	utilruntime.ReallyCrash = false
	handlers := reflect.ValueOf(&utilruntime.PanicHandlers).Elem()
	record := reflect.MakeFunc(handlers.Type().Elem(), func(args []reflect.Value) []reflect.Value {
		panicsMu.Lock()
		defer panicsMu.Unlock()
		panics = append(panics, fmt.Sprint(args[len(args)-1].Interface()))
		return nil
	})
	// kubelet's own handler logs the stack to klog (discarded here); only the recording one is kept.
	handlers.Set(reflect.Append(reflect.MakeSlice(handlers.Type(), 0, 1), record))
}

// takePanics returns the recorded panics and forgets them.
func takePanics() string {
	panicsMu.Lock()
	defer panicsMu.Unlock()
	out := strings.Join(panics, "; ")
	panics = nil
	return out
}

// syncStartGoroutines is the number of goroutines when the last scenario's SyncPod began (0: it
// did not begin).
var syncStartGoroutines int

// settle waits (at most 2 s) until the goroutines the last SyncPod started have ended. Kubelet
// kills containers from one goroutine each, whose deferred HandleCrash runs after wg.Done: a panic
// there (kubelet's own, e.g. "close of closed channel") is recorded only after SyncPod may have
// returned. Waiting here puts it in this scenario's answer, not the next one's.
func settle(before int) {
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if os.Getenv("ORACLE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "goroutines before %d after %d\n", before, runtime.NumGoroutine())
	}
}

func run(ctx context.Context, sc *Scenario) (res Result) {
	res.Name = sc.Name
	res.Calls = []Call{}
	defer func() {
		if p := recover(); p != nil {
			res.Error = fmt.Sprintf("panic: %v", p)
			if os.Getenv("ORACLE_DEBUG") != "" {
				res.Error += "\n" + string(debug.Stack())
			}
		}
	}()
	gates, err := setGates(sc.Gates)
	if err != nil {
		res.Error = err.Error()
		return
	}
	res.Gates = gates
	pod := sc.Pod
	if pod == nil {
		res.Error = "scenario has no pod"
		return
	}
	// The pod as the API server stores it and kubelet reads it: defaulted, the fields of gates that
	// are off dropped (DropDisabledPodFields, as the API server's PrepareForCreate does), defaulted
	// again when read. (A resizePolicy with InPlacePodVerticalScaling off is in kubelet 1.29/1.30's
	// container hash: kept, it made kubelet's hash differ from the one syncpod plans with.)
	pod, err = asStored(pod)
	if err != nil {
		res.Error = err.Error()
		return
	}
	fr := apitest.NewFakeRuntimeService()
	rt := &recordingRuntime{FakeRuntimeService: fr, names: map[string]string{}}
	fi := apitest.NewFakeImageService()
	fi.SetFakeImages(sc.Images)
	m, err := kuberuntime.NewOracleManager(ctx, rt, &recordingImages{FakeImageService: fi, rt: rt})
	if err != nil {
		res.Error = err.Error()
		return
	}
	hostNetwork := pod.Spec.HostNetwork
	var sandboxes []*apitest.FakePodSandbox
	for _, s := range sc.Sandboxes {
		mode := runtimeapi.NamespaceMode_POD
		if s.Network == "NODE" || (s.Network == "" && hostNetwork) {
			mode = runtimeapi.NamespaceMode_NODE
		}
		st := runtimeapi.PodSandboxStatus{
			Id:          s.ID,
			Metadata:    &runtimeapi.PodSandboxMetadata{Name: pod.Name, Namespace: pod.Namespace, Uid: string(pod.UID), Attempt: s.Attempt},
			State:       sandboxStates[s.State],
			CreatedAt:   s.CreatedAt,
			Labels:      kuberuntime.OraclePodLabels(pod),
			Annotations: kuberuntime.OraclePodAnnotations(pod),
			Linux:       &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: mode}}},
		}
		if s.IP != "" {
			st.Network = &runtimeapi.PodSandboxNetworkStatus{Ip: s.IP}
		}
		sandboxes = append(sandboxes, &apitest.FakePodSandbox{PodSandboxStatus: st})
	}
	fr.SetFakeSandboxes(sandboxes)
	var containers []*apitest.FakeContainer
	for _, c := range sc.Containers {
		spec := findContainer(pod, c.Name)
		if spec == nil {
			spec = &v1.Container{Name: c.Name, Image: c.Image}
		}
		ann := kuberuntime.OracleContainerAnnotations(ctx, spec, pod, c.RestartCount)
		if c.Hash != "" {
			ann["io.kubernetes.container.hash"] = c.Hash
		}
		image := c.Image
		if image == "" {
			image = spec.Image
		}
		st := runtimeapi.ContainerStatus{
			Id:          c.ID,
			Metadata:    &runtimeapi.ContainerMetadata{Name: c.Name, Attempt: c.Attempt},
			State:       containerStates[c.State],
			CreatedAt:   c.CreatedAt,
			StartedAt:   c.StartedAt,
			FinishedAt:  c.FinishedAt,
			ExitCode:    c.ExitCode,
			Reason:      c.Reason,
			Image:       &runtimeapi.ImageSpec{Image: image},
			ImageRef:    "sha256:" + fmt.Sprintf("%064x", len(image)),
			Labels:      kuberuntime.OracleContainerLabels(spec, pod),
			Annotations: ann,
		}
		if c.Resources != nil {
			st.Resources = &runtimeapi.ContainerResources{Linux: &runtimeapi.LinuxContainerResources{
				CpuShares: c.Resources.CPUShares, CpuQuota: c.Resources.CPUQuota, CpuPeriod: c.Resources.CPUPeriod, MemoryLimitInBytes: c.Resources.MemoryLimitInBytes,
			}}
		}
		rt.names[c.ID] = c.Name
		containers = append(containers, &apitest.FakeContainer{ContainerStatus: st, SandboxID: c.Sandbox})
	}
	// Kubelet's actuated checkpoint holds one record per container name: the newest instance's.
	newest := map[string]ContainerIn{}
	for _, c := range sc.Containers {
		if n, ok := newest[c.Name]; !ok || c.CreatedAt > n.CreatedAt {
			newest[c.Name] = c
		}
	}
	for name, c := range newest {
		spec := findContainer(pod, name)
		if spec == nil {
			continue
		}
		if err := m.SetActuated(pod, name, actuatedFrom(pod, spec, c.Resources)); err != nil {
			res.Error = err.Error()
			return
		}
	}
	fr.SetFakeContainers(containers)
	// The pod cgroup as the last sync left it: the containers at their actuated resources.
	actuatedPod := pod.DeepCopy()
	for _, c := range newest {
		if c.Resources == nil {
			continue
		}
		for i := range actuatedPod.Spec.Containers {
			if actuatedPod.Spec.Containers[i].Name == c.Name {
				actuatedPod.Spec.Containers[i].Resources = actuatedFrom(pod, &pod.Spec.Containers[i], c.Resources)
			}
		}
		for i := range actuatedPod.Spec.InitContainers {
			if actuatedPod.Spec.InitContainers[i].Name == c.Name {
				actuatedPod.Spec.InitContainers[i].Resources = actuatedFrom(pod, &pod.Spec.InitContainers[i], c.Resources)
			}
		}
	}
	m.SetPodCgroupFrom(actuatedPod)
	if u, ok := any(m).(interface{ SetPodMemoryUsage(*v1.Pod, uint64) }); ok {
		u.SetPodMemoryUsage(pod, sc.MemoryUsage)
	}
	if pr := podResources(pod); pr != nil {
		_ = m.SetActuatedPod(pod, *pr)
	}
	for _, c := range sc.Containers {
		if r, ok := sc.Liveness[c.Name]; ok && c.State == "CONTAINER_RUNNING" {
			m.SetProbe("liveness", c.ID, r == "success", pod)
		}
		if r, ok := sc.Startup[c.Name]; ok && c.State == "CONTAINER_RUNNING" {
			m.SetProbe("startup", c.ID, r == "success", pod)
		}
	}
	// The state as the runtime holds it, for the runner's stand-in CRI socket.
	for _, s := range sandboxes {
		b, _ := marshalCRI(&s.PodSandboxStatus)
		res.Sandboxes = append(res.Sandboxes, b)
	}
	for _, c := range containers {
		b, _ := marshalCRI(&c.ContainerStatus)
		wrapped := fmt.Sprintf(`{"podSandboxId":%s,"status":%s}`, strconv.Quote(c.SandboxID), b)
		res.Containers = append(res.Containers, json.RawMessage(wrapped))
	}
	status, err := m.PodStatus(ctx, pod)
	if err != nil {
		res.Error = err.Error()
		return
	}
	// Goroutines the manager keeps (work queues of some releases) are running already: settle waits
	// only for those SyncPod starts.
	syncStartGoroutines = runtime.NumGoroutine()
	res.Actions = m.Sync(ctx, pod.DeepCopy(), status, restartAllFor(pod, status))
	res.Calls = rt.calls
	return
}

func main() {
	version := flag.Bool("version", false, "print the kubelet release this oracle was built from")
	gatesFlag := flag.Bool("gates", false, "print the release's feature gates (default, locked, stage) as JSON")
	flag.Parse()
	if *version {
		fmt.Println(kubeletRelease)
		return
	}
	if *gatesFlag {
		b, _ := json.Marshal(gateSpecs())
		fmt.Println(string(b))
		return
	}
	catchGoroutinePanics()
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	defaultGates = map[string]bool{}
	for name, spec := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		if spec.LockToDefault {
			continue
		}
		defaultGates[string(name)] = utilfeature.DefaultFeatureGate.Enabled(name)
	}
	ctx := context.Background()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var sc Scenario
		var res Result
		if err := json.Unmarshal(in.Bytes(), &sc); err != nil {
			res = Result{Error: "scenario: " + err.Error(), Calls: []Call{}}
		} else {
			syncStartGoroutines = 0
			res = run(ctx, &sc)
			if syncStartGoroutines > 0 {
				settle(syncStartGoroutines)
			}
			res.Panic = takePanics()
		}
		b, _ := json.Marshal(res)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
