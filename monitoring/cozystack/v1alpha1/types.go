package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkloadMonitor tells the Cozystack dashboard which pods make up an
// application and how many must run for it to be operational.
//
// +kubebuilder:object:root=true
type WorkloadMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WorkloadMonitorSpec    `json:"spec"`
	Status *WorkloadMonitorStatus `json:"status,omitempty"`
}

// WorkloadMonitorList is a list of WorkloadMonitors.
//
// +kubebuilder:object:root=true
type WorkloadMonitorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WorkloadMonitor `json:"items"`
}

// WorkloadMonitorSpec selects the pods and states the replica expectations.
type WorkloadMonitorSpec struct {
	Selector    map[string]string `json:"selector"`
	Kind        string            `json:"kind,omitempty"`
	Type        string            `json:"type,omitempty"`
	Version     string            `json:"version,omitempty"`
	Replicas    *int32            `json:"replicas,omitempty"`
	MinReplicas *int32            `json:"minReplicas,omitempty"`
}

// WorkloadMonitorStatus is the observed state of a WorkloadMonitor.
type WorkloadMonitorStatus struct {
	Operational       *bool `json:"operational,omitempty"`
	ObservedReplicas  int32 `json:"observedReplicas,omitempty"`
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
}
