// syncpod oracle (overlay, see ../shared/zz_syncpod_oracle.go): kubelet 1.34 to 1.37 check the pod's memory
// usage (runtimeHelper.PodCPUAndMemoryStats) before lowering a memory limit in place.
package kuberuntime

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
)

// SetPodMemoryUsage gives the pod's memory usage as kubelet's stats would; the fake runtime helper
// has none, which fails every decrease.
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
