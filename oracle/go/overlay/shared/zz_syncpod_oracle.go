// Added to k8s.io/kubernetes/pkg/kubelet/kuberuntime at build time (go build -overlay) by
// scripts/oracle-build.ts; written for syncpod's oracle, not part of kubelet. It only reaches
// what the package keeps unexported: the fake-backed manager kubelet's own tests use, the
// labels and annotations kubelet writes, the prober result caches and the actuated-resources
// state, so the driver can run the real GetPods, GetPodStatus and SyncPod. The parts whose
// unexported names differ by release are in the overlay directory its ORACLE_MINORS row names, which
// defines oracleNewManager, oracleSetPodCgroup, oracleResourceConfig, OracleContainerAnnotations,
// SetActuated, SetActuatedPod, PodStatus and Sync.
package kuberuntime

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
)

// OracleManager is kubelet's runtime manager as its unit tests build it.
type OracleManager struct {
	m *kubeGenericRuntimeManager
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

// SetPodCgroupFrom sets the pod cgroup's current values to those kubelet writes for this pod
// (its containers at their actuated resources).
func (o *OracleManager) SetPodCgroupFrom(actuatedPod *v1.Pod) {
	o.m.containerManager = &oracleContainerManager{ContainerManager: o.m.containerManager, current: o.oracleResourceConfig(actuatedPod)}
}

// OraclePodLabels and the other helpers return what kubelet writes on sandboxes and containers.
func OraclePodLabels(pod *v1.Pod) map[string]string      { return newPodLabels(pod) }
func OraclePodAnnotations(pod *v1.Pod) map[string]string { return newPodAnnotations(pod) }
func OracleContainerLabels(c *v1.Container, pod *v1.Pod) map[string]string {
	return newContainerLabels(c, pod)
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

// running is the pod as GetPods lists it (an empty pod of that uid when the runtime has none).
func (o *OracleManager) running(pods []*kubecontainer.Pod, pod *v1.Pod) *kubecontainer.Pod {
	out := &kubecontainer.Pod{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	for _, p := range pods {
		if p.ID == pod.UID {
			out = p
		}
	}
	return out
}
