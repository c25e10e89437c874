// The driver's part for kubelet 1.31 and earlier, whose PodSpec has no pod-level resources.
package main

import v1 "k8s.io/api/core/v1"

// podResources: a PodSpec before 1.32 has no pod-level resources.
func podResources(_ *v1.Pod) *v1.ResourceRequirements { return nil }
