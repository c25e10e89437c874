// Added to k8s.io/kubernetes/pkg/kubelet/kuberuntime at build time (go build -overlay) by
// scripts/oracle-build.ts; written for syncpod's oracle, not part of kubelet. It only reaches
// what the package keeps unexported: the fake-backed manager kubelet's own tests use, the
// labels and annotations kubelet writes, the prober result caches and the actuated-resources
// state, so the driver can run the real GetPods, GetPodStatus and SyncPod. Kubelet v1.37.
package kuberuntime

import (
	"context"
	"time"

	cadvisorapi "github.com/google/cadvisor/lib/model"
	noopoteltrace "go.opentelemetry.io/otel/trace/noop"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
)

// OracleManager is kubelet's runtime manager as its unit tests build it.
type OracleManager struct {
	m *kubeGenericRuntimeManager
}

// NewOracleManager builds the manager over the given runtime and image services.
func NewOracleManager(ctx context.Context, rs internalapi.RuntimeService, is internalapi.ImageManagerService) (*OracleManager, error) {
	memory := resource.MustParse(fakeNodeAllocatableMemory)
	info := &cadvisorapi.MachineInfo{MemoryCapacity: uint64(memory.Value())}
	m, err := newFakeKubeRuntimeManager(ctx, rs, is, info, &containertest.FakeOS{}, &containertest.FakeRuntimeHelper{}, noopoteltrace.NewTracerProvider().Tracer(""), record.NewFakeRecorder(1000))
	if err != nil {
		return nil, err
	}
	// kubelet's default configuration enforces CPU limits with CFS quota (cpuCFSQuota: true).
	m.cpuCFSQuota = true
	return &OracleManager{m: m}, nil
}

// oracleContainerManager answers the pod cgroup's current values as a node would (kubelet reads
// them from cgroupfs); the fake container manager has none.
type oracleContainerManager struct {
	cm.ContainerManager
	current *cm.ResourceConfig
}

func (c *oracleContainerManager) NewPodContainerManager() cm.PodContainerManager {
	return &oraclePodContainerManager{PodContainerManager: c.ContainerManager.NewPodContainerManager(), owner: c}
}

type oraclePodContainerManager struct {
	cm.PodContainerManager
	owner *oracleContainerManager
}

func (p *oraclePodContainerManager) GetPodCgroupConfig(_ *v1.Pod, r v1.ResourceName) (*cm.ResourceConfig, error) {
	cur := p.owner.current
	if cur == nil {
		return &cm.ResourceConfig{}, nil
	}
	if r == v1.ResourceMemory {
		// An unlimited memory.max ("max") reads as -1.
		memory := int64(-1)
		if cur.Memory != nil {
			memory = *cur.Memory
		}
		return &cm.ResourceConfig{Memory: &memory}, nil
	}
	out := &cm.ResourceConfig{CPUShares: cur.CPUShares, CPUQuota: cur.CPUQuota, CPUPeriod: cur.CPUPeriod}
	// An unlimited cpu.max ("max") reads as quota -1.
	if out.CPUQuota == nil {
		unlimited := int64(-1)
		out.CPUQuota = &unlimited
	}
	return out, nil
}

func (p *oraclePodContainerManager) SetPodCgroupConfig(_ klog.Logger, _ *v1.Pod, rc *cm.ResourceConfig) error {
	return nil
}

// SetPodCgroupFrom sets the pod cgroup's current values to those kubelet writes for this pod
// (its containers at their actuated resources).
func (o *OracleManager) SetPodCgroupFrom(actuatedPod *v1.Pod) {
	rc := cm.ResourceConfigForPod(actuatedPod, o.m.cpuCFSQuota, uint64(o.m.cpuCFSQuotaPeriod.Duration/time.Microsecond), o.m.isMemoryQoSEnforced(), o.m.memoryReservationPolicy)
	o.m.containerManager = &oracleContainerManager{ContainerManager: o.m.containerManager, current: rc}
}

// SetPodMemoryUsage gives the pod's memory usage as kubelet's stats would (the resize checks it
// before it lowers a memory limit); the fake runtime helper has none, which fails every decrease.
func (o *OracleManager) SetPodMemoryUsage(pod *v1.Pod, usage uint64) {
	helper, ok := o.m.runtimeHelper.(*containertest.FakeRuntimeHelper)
	if !ok {
		return
	}
	if helper.PodStats == nil {
		helper.PodStats = map[types.UID]*statsapi.PodStats{}
	}
	u := usage
	helper.PodStats[pod.UID] = &statsapi.PodStats{Memory: &statsapi.MemoryStats{UsageBytes: &u}}
}

// RuntimeName is the runtime's name as the manager read it (the ContainerID type).
func (o *OracleManager) RuntimeName() string { return o.m.runtimeName }

// PodLabels and the other helpers return what kubelet writes on sandboxes and containers.
func OraclePodLabels(pod *v1.Pod) map[string]string      { return newPodLabels(pod) }
func OraclePodAnnotations(pod *v1.Pod) map[string]string { return newPodAnnotations(pod) }
func OracleContainerLabels(c *v1.Container, pod *v1.Pod) map[string]string {
	return newContainerLabels(c, pod)
}
func OracleContainerAnnotations(ctx context.Context, c *v1.Container, pod *v1.Pod, restartCount int) map[string]string {
	return newContainerAnnotations(ctx, c, pod, restartCount, &kubecontainer.RunContainerOptions{})
}

// SetProbe stores a liveness or startup result as kubelet's prober would have.
func (o *OracleManager) SetProbe(kind, containerID string, success bool, pod *v1.Pod) {
	id := kubecontainer.ContainerID{Type: o.m.runtimeName, ID: containerID}
	result := proberesults.Failure
	if success {
		result = proberesults.Success
	}
	if kind == "liveness" {
		o.m.livenessManager.Set(id, result, pod)
	} else {
		o.m.startupManager.Set(id, result, pod)
	}
}

// SetActuated stores the resources kubelet would hold in its actuated checkpoint.
func (o *OracleManager) SetActuated(pod *v1.Pod, container string, r v1.ResourceRequirements) error {
	return o.m.actuatedState.SetContainerResources(klog.Background(), pod.UID, container, r)
}

// SetActuatedPod stores the pod-level resources kubelet would hold in its actuated checkpoint.
func (o *OracleManager) SetActuatedPod(pod *v1.Pod, r v1.ResourceRequirements) error {
	return o.m.actuatedState.SetPodLevelResources(klog.Background(), pod.UID, &r)
}

// PodStatus lists the pod as the PLEG would (GetPods) and reads its status (GetPodStatus).
func (o *OracleManager) PodStatus(ctx context.Context, pod *v1.Pod) (*kubecontainer.PodStatus, error) {
	pods, err := o.m.GetPods(ctx, true)
	if err != nil {
		return nil, err
	}
	running := &kubecontainer.Pod{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	for _, p := range pods {
		if p.ID == pod.UID {
			running = p
		}
	}
	return o.m.GetPodStatus(ctx, running)
}

// Sync runs SyncPod with a fresh crash-loop back-off (kubelet's 10s doubling to 300s: no entry
// held) and returns computePodActions' own summary of what it decided.
func (o *OracleManager) Sync(ctx context.Context, pod *v1.Pod, status *kubecontainer.PodStatus, restartAll bool) string {
	actions := o.m.computePodActions(ctx, pod.DeepCopy(), status, restartAll)
	backOff := flowcontrol.NewBackOff(10*time.Second, 300*time.Second)
	o.m.SyncPod(ctx, pod, status, nil, backOff, restartAll)
	return actions.String()
}
