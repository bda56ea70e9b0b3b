package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// VMPodScrape scrapes metrics from the pods its selector matches.
//
// +kubebuilder:object:root=true
type VMPodScrape struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec VMPodScrapeSpec `json:"spec"`
}

// VMPodScrapeList is a list of VMPodScrapes.
//
// +kubebuilder:object:root=true
type VMPodScrapeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []VMPodScrape `json:"items"`
}

// VMPodScrapeSpec selects the pods and their metrics endpoints.
type VMPodScrapeSpec struct {
	JobLabel            string               `json:"jobLabel,omitempty"`
	PodMetricsEndpoints []PodMetricsEndpoint `json:"podMetricsEndpoints"`
	Selector            metav1.LabelSelector `json:"selector"`
	NamespaceSelector   *NamespaceSelector   `json:"namespaceSelector,omitempty"`
	SampleLimit         *int64               `json:"sampleLimit,omitempty"`
	SeriesLimit         *int64               `json:"seriesLimit,omitempty"`
	AttachMetadata      *AttachMetadata      `json:"attach_metadata,omitempty"`
}

// PodMetricsEndpoint is one scrape target of each selected pod.
type PodMetricsEndpoint struct {
	Port          string              `json:"port,omitempty"`
	PortNumber    *int32              `json:"portNumber,omitempty"`
	TargetPort    *intstr.IntOrString `json:"targetPort,omitempty"`
	Path          string              `json:"path,omitempty"`
	Scheme        string              `json:"scheme,omitempty"`
	Interval      string              `json:"interval,omitempty"`
	ScrapeTimeout string              `json:"scrapeTimeout,omitempty"`
	HonorLabels   bool                `json:"honorLabels,omitempty"`
	FilterRunning *bool               `json:"filterRunning,omitempty"`
	SampleLimit   *int64              `json:"sampleLimit,omitempty"`
	SeriesLimit   *int64              `json:"seriesLimit,omitempty"`
}

// NamespaceSelector selects the namespaces to look for pods in.
type NamespaceSelector struct {
	Any        bool     `json:"any,omitempty"`
	MatchNames []string `json:"matchNames,omitempty"`
}

// AttachMetadata adds node or namespace metadata to the targets.
type AttachMetadata struct {
	Node      *bool `json:"node,omitempty"`
	Namespace *bool `json:"namespace,omitempty"`
}
