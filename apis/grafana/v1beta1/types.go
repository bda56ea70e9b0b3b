package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GrafanaDashboard is a dashboard that grafana-operator imports into the
// Grafana instances its instanceSelector matches.
//
// +kubebuilder:object:root=true
type GrafanaDashboard struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state: the dashboard model and the Grafana instances
	// that import it.
	Spec GrafanaDashboardSpec `json:"spec"`
}

// GrafanaDashboardList is a list of GrafanaDashboards.
//
// +kubebuilder:object:root=true
type GrafanaDashboardList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the GrafanaDashboards in the list.
	Items []GrafanaDashboard `json:"items"`
}

// GrafanaDashboardSpec is where the dashboard model comes from and which
// Grafanas import it. The library sets the model inline (JSON).
type GrafanaDashboardSpec struct {
	// InstanceSelector selects the Grafana instances that import the
	// dashboard (in the dashboard's namespace unless
	// AllowCrossNamespaceImport).
	InstanceSelector *metav1.LabelSelector `json:"instanceSelector"`
	// AllowCrossNamespaceImport lets Grafanas in other namespaces import
	// it. The CRD refuses turning it off again without a recreate.
	AllowCrossNamespaceImport bool `json:"allowCrossNamespaceImport,omitempty"`
	// Folder is the Grafana folder's title.
	Folder string `json:"folder,omitempty"`
	// FolderUID is the UID of an existing Grafana folder (not with Folder).
	FolderUID string `json:"folderUID,omitempty"`
	// FolderRef names a GrafanaFolder in the same namespace (not with
	// Folder).
	FolderRef string `json:"folderRef,omitempty"`
	// UID overwrites the model's uid; immutable once set.
	UID string `json:"uid,omitempty"`
	// JSON is the dashboard model.
	JSON string `json:"json,omitempty"`
	// ResyncPeriod is how often the operator syncs it (Go duration;
	// grafana-operator's default 10m0s when empty).
	ResyncPeriod string `json:"resyncPeriod,omitempty"`
	// Datasources map the model's datasource inputs to existing ones.
	Datasources []GrafanaResourceDatasource `json:"datasources,omitempty"`
	// Suspend stops the operator syncing it.
	Suspend bool `json:"suspend,omitempty"`
}

// GrafanaResourceDatasource maps a templated datasource input of the model
// to an existing datasource.
type GrafanaResourceDatasource struct {
	// InputName is the name of the datasource input templated in the model,
	// e.g. "DS_PROMETHEUS".
	InputName string `json:"inputName"`
	// DatasourceName is the name of the existing Grafana datasource the input
	// resolves to.
	DatasourceName string `json:"datasourceName"`
}
