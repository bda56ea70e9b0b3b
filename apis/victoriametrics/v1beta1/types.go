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

	// Spec is the desired state: the pods to scrape and their endpoints.
	Spec VMPodScrapeSpec `json:"spec"`
}

// VMPodScrapeList is a list of VMPodScrapes.
//
// +kubebuilder:object:root=true
type VMPodScrapeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the VMPodScrapes in the list.
	Items []VMPodScrape `json:"items"`
}

// VMPodScrapeSpec selects the pods and their metrics endpoints.
type VMPodScrapeSpec struct {
	// JobLabel names the pod label whose value becomes the job label of the
	// scraped series.
	JobLabel string `json:"jobLabel,omitempty"`
	// PodMetricsEndpoints are the endpoints scraped on each selected pod.
	PodMetricsEndpoints []PodMetricsEndpoint `json:"podMetricsEndpoints"`
	// Selector selects the pods to scrape.
	Selector metav1.LabelSelector `json:"selector"`
	// NamespaceSelector selects the namespaces to look for pods in; nil means
	// the VMPodScrape's own namespace.
	NamespaceSelector *NamespaceSelector `json:"namespaceSelector,omitempty"`
	// SampleLimit is the per-scrape limit on the number of samples accepted
	// from a target.
	SampleLimit *int64 `json:"sampleLimit,omitempty"`
	// SeriesLimit is the limit on the number of unique series a target may
	// expose.
	SeriesLimit *int64 `json:"seriesLimit,omitempty"`
	// AttachMetadata adds the metadata of the pod's node or namespace to the
	// discovered targets.
	AttachMetadata *AttachMetadata `json:"attach_metadata,omitempty"`
}

// PodMetricsEndpoint is one scrape target of each selected pod.
type PodMetricsEndpoint struct {
	// Port is the name of the pod's container port to scrape.
	Port string `json:"port,omitempty"`
	// PortNumber is the number of the pod's port to scrape, instead of Port.
	PortNumber *int32 `json:"portNumber,omitempty"`
	// TargetPort is the name or number of the pod's port to scrape, an older
	// alternative to Port and PortNumber.
	TargetPort *intstr.IntOrString `json:"targetPort,omitempty"`
	// Path is the HTTP path of the metrics; empty means "/metrics".
	Path string `json:"path,omitempty"`
	// Scheme is "http" or "https"; empty means "http".
	Scheme string `json:"scheme,omitempty"`
	// Interval is how often the endpoint is scraped, as a duration such as
	// "30s"; empty means vmagent's default.
	Interval string `json:"interval,omitempty"`
	// ScrapeTimeout bounds one scrape, as a duration such as "10s"; empty means
	// vmagent's default.
	ScrapeTimeout string `json:"scrapeTimeout,omitempty"`
	// HonorLabels keeps the target's labels when they clash with labels the
	// scraper attaches.
	HonorLabels bool `json:"honorLabels,omitempty"`
	// FilterRunning skips pods that are not running (e.g. Succeeded or Failed);
	// nil means true.
	FilterRunning *bool `json:"filterRunning,omitempty"`
	// SampleLimit overrides VMPodScrapeSpec.SampleLimit for this endpoint.
	SampleLimit *int64 `json:"sampleLimit,omitempty"`
	// SeriesLimit overrides VMPodScrapeSpec.SeriesLimit for this endpoint.
	SeriesLimit *int64 `json:"seriesLimit,omitempty"`
}

// NamespaceSelector selects the namespaces to look for pods in.
type NamespaceSelector struct {
	// Any selects all namespaces; it takes precedence over MatchNames.
	Any bool `json:"any,omitempty"`
	// MatchNames are the names of the namespaces to select.
	MatchNames []string `json:"matchNames,omitempty"`
}

// AttachMetadata adds node or namespace metadata to the targets.
type AttachMetadata struct {
	// Node adds the metadata of the pod's node to the targets' discovery labels.
	Node *bool `json:"node,omitempty"`
	// Namespace adds the metadata of the pod's namespace to the targets'
	// discovery labels.
	Namespace *bool `json:"namespace,omitempty"`
}
