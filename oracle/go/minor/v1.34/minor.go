// The driver's parts that differ by kubelet minor: kubelet v1.34 (no RestartAllContainers).
package main

import (
	v1 "k8s.io/api/core/v1"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

// restartAllFor: kubelet 1.34 has no RestartAllContainers.
func restartAllFor(_ *v1.Pod, _ *kubecontainer.PodStatus) bool { return false }
