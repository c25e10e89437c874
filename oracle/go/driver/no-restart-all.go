// The driver's part that differs by kubelet minor, for kubelet 1.34 and earlier (no RestartAllContainers).
package main

import (
	v1 "k8s.io/api/core/v1"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

// restartAllFor: kubelet before 1.35 has no RestartAllContainers.
func restartAllFor(_ *v1.Pod, _ *kubecontainer.PodStatus) bool { return false }
