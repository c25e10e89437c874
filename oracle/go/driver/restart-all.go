// The driver's part that differs by kubelet minor, for kubelet 1.35 and later (RestartAllContainers).
package main

import (
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
)

// restartAllFor is what kubelet's SyncPod passes as restartAllContainers: whether the API status it
// generated carries AllContainersRestarting=True (the old API status is the manifest's, usually empty).
func restartAllFor(pod *v1.Pod, status *kubecontainer.PodStatus) bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.RestartAllContainersOnContainerExits) &&
		kubeletstatus.GenerateAllContainersRestartingCondition(pod, status, &pod.Status, pod.Status.Phase).Status == v1.ConditionTrue
}
