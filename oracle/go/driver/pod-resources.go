// The driver's part for kubelet 1.32 and later, whose PodSpec has pod-level resources.
package main

import v1 "k8s.io/api/core/v1"

// podResources is the pod-level resources of the spec (PodLevelResources), nil when unset.
func podResources(pod *v1.Pod) *v1.ResourceRequirements { return pod.Spec.Resources }
