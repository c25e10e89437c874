// The driver's part for kubelet 1.33 and later, whose CRI has UpdatePodSandboxResources.
package main

import (
	"context"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// UpdatePodSandboxResources records the pod-level resources kubelet sends on a resize.
func (r *recordingRuntime) UpdatePodSandboxResources(ctx context.Context, req *runtimeapi.UpdatePodSandboxResourcesRequest) (*runtimeapi.UpdatePodSandboxResourcesResponse, error) {
	c := Call{Op: "UpdatePodSandboxResources", Sandbox: req.GetPodSandboxId()}
	if l := req.GetResources(); l != nil {
		c.Resources = &Resources{CPUShares: l.CpuShares, CPUQuota: l.CpuQuota, CPUPeriod: l.CpuPeriod, MemoryLimitInBytes: l.MemoryLimitInBytes}
	}
	r.record(c)
	return r.FakeRuntimeService.UpdatePodSandboxResources(ctx, req)
}
