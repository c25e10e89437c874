// syncpod oracle (overlay, see zz_syncpod_oracle.go): the names kubelet v1.29 and v1.30 give these parts.
package kuberuntime

import (
	"context"
	"time"

	cadvisorapi "github.com/google/cadvisor/info/v1"
	oteltrace "go.opentelemetry.io/otel/trace"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/util/flowcontrol"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/kubernetes/pkg/credentialprovider"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
)

// NewOracleManager builds the manager over the given runtime and image services.
func NewOracleManager(ctx context.Context, rs internalapi.RuntimeService, is internalapi.ImageManagerService) (*OracleManager, error) {
	memory := resource.MustParse(fakeNodeAllocatableMemory)
	info := &cadvisorapi.MachineInfo{MemoryCapacity: uint64(memory.Value())}
	m, err := newFakeKubeRuntimeManager(rs, is, info, &containertest.FakeOS{}, &containertest.FakeRuntimeHelper{}, &credentialprovider.BasicDockerKeyring{}, oteltrace.NewNoopTracerProvider().Tracer(""))
	if err != nil {
		return nil, err
	}
	// kubelet's default configuration enforces CPU limits with CFS quota (cpuCFSQuota: true).
	m.cpuCFSQuota = true
	return &OracleManager{m: m}, nil
}

func (p *oraclePodContainerManager) SetPodCgroupConfig(_ *v1.Pod, _ v1.ResourceName, _ *cm.ResourceConfig) error {
	return nil
}

func (o *OracleManager) oracleResourceConfig(pod *v1.Pod) *cm.ResourceConfig {
	return cm.ResourceConfigForPod(pod, o.m.cpuCFSQuota, uint64(o.m.cpuCFSQuotaPeriod.Duration/time.Microsecond), false)
}

func OracleContainerAnnotations(_ context.Context, c *v1.Container, pod *v1.Pod, restartCount int) map[string]string {
	return newContainerAnnotations(c, pod, restartCount, &kubecontainer.RunContainerOptions{})
}

// SetActuated: kubelet 1.29 and 1.30 keep no actuated record (a resize compares the runtime's
// resources with the allocation in the pod).
func (o *OracleManager) SetActuated(_ *v1.Pod, _ string, _ v1.ResourceRequirements) error {
	return nil
}

// SetActuatedPod: kubelet 1.29 and 1.30 keep no pod-level actuated record.
func (o *OracleManager) SetActuatedPod(_ *v1.Pod, _ v1.ResourceRequirements) error {
	return nil
}

// PodStatus reads the pod's status as the PLEG would (GetPodStatus by uid, name and namespace).
func (o *OracleManager) PodStatus(ctx context.Context, pod *v1.Pod) (*kubecontainer.PodStatus, error) {
	return o.m.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
}

// Sync runs SyncPod with a fresh crash-loop back-off (kubelet's 10s doubling to 300s: no entry
// held) and returns computePodActions' own summary of what it decided.
func (o *OracleManager) Sync(ctx context.Context, pod *v1.Pod, status *kubecontainer.PodStatus, _ bool) string {
	actions := o.m.computePodActions(ctx, pod.DeepCopy(), status)
	o.m.SyncPod(ctx, pod, status, nil, flowcontrol.NewBackOff(10*time.Second, 300*time.Second))
	return actions.String()
}
