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

	// Spec is the desired state: which pods make up the workload and how many
	// must run.
	Spec WorkloadMonitorSpec `json:"spec"`
	// Status is the observed state, written by Cozystack's controller; nil
	// until it first reconciles.
	Status *WorkloadMonitorStatus `json:"status,omitempty"`
}

// WorkloadMonitorList is a list of WorkloadMonitors.
//
// +kubebuilder:object:root=true
type WorkloadMonitorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the WorkloadMonitors in the list.
	Items []WorkloadMonitor `json:"items"`
}

// WorkloadMonitorSpec selects the pods and states the replica expectations.
type WorkloadMonitorSpec struct {
	// Selector is the labels a pod must carry to count as part of the workload.
	Selector map[string]string `json:"selector"`
	// Kind is the kind of the workload, e.g. "etcd".
	Kind string `json:"kind,omitempty"`
	// Type is the type of the workload, e.g. "etcd".
	Type string `json:"type,omitempty"`
	// Version is the workload's version; this library puts the calling chart's
	// version there.
	Version string `json:"version,omitempty"`
	// Replicas is the desired number of replicas; nil means the observed number
	// is the target.
	Replicas *int32 `json:"replicas,omitempty"`
	// MinReplicas is the number of replicas that must be available for the
	// workload to be operational; for etcd, the quorum.
	MinReplicas *int32 `json:"minReplicas,omitempty"`
}

// WorkloadMonitorStatus is the observed state of a WorkloadMonitor.
type WorkloadMonitorStatus struct {
	// Operational says whether the workload meets all its operational
	// requirements.
	Operational *bool `json:"operational,omitempty"`
	// ObservedReplicas is the number of pods observed.
	ObservedReplicas int32 `json:"observedReplicas,omitempty"`
	// AvailableReplicas is the number of ready pods.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
}
