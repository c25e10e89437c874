// syncpod oracle (overlay, see zz_syncpod_oracle.go): the names kubelet v1.35 gives these parts.
package kuberuntime

import (
	"context"
	"time"

	cadvisorapi "github.com/google/cadvisor/info/v1"
	noopoteltrace "go.opentelemetry.io/otel/trace/noop"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/util/flowcontrol"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
)

// NewOracleManager builds the manager over the given runtime and image services.
func NewOracleManager(ctx context.Context, rs internalapi.RuntimeService, is internalapi.ImageManagerService) (*OracleManager, error) {
	memory := resource.MustParse(fakeNodeAllocatableMemory)
	info := &cadvisorapi.MachineInfo{MemoryCapacity: uint64(memory.Value())}
	m, err := newFakeKubeRuntimeManager(ctx, rs, is, info, &containertest.FakeOS{}, &containertest.FakeRuntimeHelper{}, noopoteltrace.NewTracerProvider().Tracer(""))
	if err != nil {
		return nil, err
	}
	// kubelet's default configuration enforces CPU limits with CFS quota (cpuCFSQuota: true).
	m.cpuCFSQuota = true
	return &OracleManager{m: m}, nil
}

func (p *oraclePodContainerManager) SetPodCgroupConfig(_ klog.Logger, _ *v1.Pod, _ *cm.ResourceConfig) error {
	return nil
}

func (o *OracleManager) oracleResourceConfig(pod *v1.Pod) *cm.ResourceConfig {
	return cm.ResourceConfigForPod(pod, o.m.cpuCFSQuota, uint64(o.m.cpuCFSQuotaPeriod.Duration/time.Microsecond), false)
}

func OracleContainerAnnotations(ctx context.Context, c *v1.Container, pod *v1.Pod, restartCount int) map[string]string {
	return newContainerAnnotations(ctx, c, pod, restartCount, &kubecontainer.RunContainerOptions{})
}

// SetActuated stores the resources kubelet would hold in its actuated checkpoint.
func (o *OracleManager) SetActuated(pod *v1.Pod, container string, r v1.ResourceRequirements) error {
	return o.m.actuatedState.SetContainerResources(pod.UID, container, r)
}

// SetActuatedPod stores the pod-level resources kubelet would hold in its actuated checkpoint.
func (o *OracleManager) SetActuatedPod(pod *v1.Pod, r v1.ResourceRequirements) error {
	return o.m.actuatedState.SetPodLevelResources(pod.UID, &r)
}

// PodStatus reads the pod's status as the PLEG would (GetPodStatus by uid, name and namespace).
func (o *OracleManager) PodStatus(ctx context.Context, pod *v1.Pod) (*kubecontainer.PodStatus, error) {
	return o.m.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
}

// Sync runs SyncPod with a fresh crash-loop back-off (kubelet's 10s doubling to 300s: no entry
// held) and returns computePodActions' own summary of what it decided.
func (o *OracleManager) Sync(ctx context.Context, pod *v1.Pod, status *kubecontainer.PodStatus, restartAll bool) string {
	actions := o.m.computePodActions(ctx, pod.DeepCopy(), status, restartAll)
	o.m.SyncPod(ctx, pod, status, nil, flowcontrol.NewBackOff(10*time.Second, 300*time.Second), restartAll)
	return actions.String()
}
