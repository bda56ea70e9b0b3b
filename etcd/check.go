package etcd

import (
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/distribution/reference"
	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Performance check settings.
const (
	// EtcdImageRepository publishes etcd's release images (etcd's primary
	// registry); the check runs the etcdctl of the cluster's version from
	// it: "<repository>:v<version>".
	EtcdImageRepository = "gcr.io/etcd-development/etcd"
	// DefaultCheckLoad is etcdctl's smallest workload model.
	DefaultCheckLoad = "s"
	// CheckTTLSeconds keeps a finished check Job, and its pod's log,
	// for a day.
	CheckTTLSeconds = 86400

	etcdctl = "/usr/local/bin/etcdctl"
	// checkDeadlineSeconds bounds a run: check perf takes a minute,
	// check datascale at its largest loads several.
	checkDeadlineSeconds = 3600
)

// checkLoad is one of etcdctl's workload models (etcdctl/ctlv3/command/
// check.go): the writes check perf makes and check datascale's keys.
type checkLoad struct {
	name string
	// perfRate writes per second for perfSeconds.
	perfRate, perfSeconds int64
	// datascaleKeys of datascaleKVBytes each.
	datascaleKeys int64
}

// checkLoads are etcdctl's workload models, smallest first.
var checkLoads = []checkLoad{
	{"s", 150, 60, 10_000},
	{"m", 1_000, 60, 100_000},
	{"l", 8_000, 60, 1_000_000},
	{"xl", 15_000, 60, 3_000_000},
}

// Bytes each check writes per key: etcdctl's key and value sizes plus its
// default key prefix.
const (
	perfKVBytes      = 256 + 1024 + int64(len("/etcdctl-check-perf/"))
	datascaleKVBytes = 512 + 512 + int64(len("/etcdctl-check-datascale/"))
)

// CheckOptions describe a performance check.
type CheckOptions struct {
	// Load is etcdctl's workload model for both checks: "s" (150 writes
	// a second for a minute; datascale 10,000 keys), "m", "l" or "xl"
	// (15,000 writes a second; datascale 3,000,000 keys); "" means
	// DefaultCheckLoad.
	Load string
	// Datascale also runs etcdctl check datascale after check perf: it
	// writes Load's keys and reports the memory they take on the member
	// that answers its /metrics request (through the cluster Service, any
	// member).
	Datascale bool
	// Image is the image whose /usr/local/bin/etcdctl runs, for a registry
	// of your own: a reference the kubelet parses
	// (github.com/distribution/reference), registry and repository in
	// lowercase; "" means EtcdImageRepository:v<Options.Version>.
	Image string
	// QuotaBackendBytes is the quota the running cluster has (a live
	// EtcdCluster's spec.options.quotaBackendBytes, which a hand or another
	// tool may have set otherwise than the stacks do; one without the field
	// runs at etcd's default, EtcdDefaultQuotaBackendBytes): the quota rule
	// guards the smaller of it and the quota of Options.Size, since the
	// data volume bounds the database too. 0 means the quota of
	// Options.Size alone, as the stacks set it. Negative is refused.
	QuotaBackendBytes int64
}

// EtcdDefaultQuotaBackendBytes is etcd's --quota-backend-bytes when none
// is given (2 GiB: DefaultQuotaBytes in etcd's server/storage/backend, as
// the EtcdCluster CRD says of an absent or 0 spec.options.quotaBackendBytes).
const EtcdDefaultQuotaBackendBytes int64 = 2 << 30

// CheckWriteBytes is about how many bytes of keys and values the checks
// of o write into the cluster (the database grows by more: bbolt's pages,
// revisions). Each check deletes its keys at the end; the space returns
// after compaction and defragmentation.
func CheckWriteBytes(o CheckOptions) (int64, error) {
	l, err := o.load()
	if err != nil {
		return 0, err
	}
	return checkWriteBytes(l, o.Datascale), nil
}

func checkWriteBytes(l checkLoad, datascale bool) int64 {
	b := l.perfRate * l.perfSeconds * perfKVBytes
	if datascale {
		b += l.datascaleKeys * datascaleKVBytes
	}
	return b
}

func (o CheckOptions) load() (checkLoad, error) {
	name := o.Load
	if name == "" {
		name = DefaultCheckLoad
	}
	for _, l := range checkLoads {
		if l.name == name {
			return l, nil
		}
	}
	return checkLoad{}, invalid.Errorf("Load", o.Load, "must be one of s, m, l or xl (etcdctl's workload models)")
}

// CheckJob builds a Job that checks the cluster's performance with
// etcdctl check perf and, with CheckOptions.Datascale, check datascale,
// through the cluster Service with the client certificate, as the defrag
// CronJob reaches it. o are the cluster's Options: Version picks the
// etcdctl image (EtcdImageRepository), Size the quota the check must
// stay well within.
//
// The checks write into the live cluster (CheckWriteBytes) and load it for
// a minute or more: run them when the tenant control planes can take it.
// A load whose writes exceed half the quota is refused, since filling the
// quota raises etcd's NOSPACE alarm and stops every write.
//
// The pod needs no Kubernetes API access, so the Job has no
// ServiceAccount, Role or RoleBinding and mounts no token; it runs at the
// Pod Security "restricted" level, and a tenant cluster's pod carries the
// label that lets it through the cluster's network policy. A failed check
// is not retried (a retry would load the cluster again, and a check
// interrupted midway leaves its keys behind, which the next run refuses:
// delete them with etcdctl del --prefix /etcdctl-check-perf/ or
// /etcdctl-check-datascale/). The finished Job stays CheckTTLSeconds for
// its log: kubectl logs job/<name>-check --all-containers.
//
// The names, every refusal of o (as Options.Validate gives them), the load
// and the image are checked each on its own and all refused together (see
// invalid.List), in that order; the quota rule needs a valid load and size,
// so it is checked only when both are (whatever the other options hold).
func CheckJob(n naming.Names, o Options, c CheckOptions) (*batchv1.Job, error) {
	return CheckJobAt(n, o, c, GoPaths(nil))
}

// CheckJobAt is CheckJob with o validated under the caller's paths (see
// Paths): the CLI names the flag, or the live field, that set each option.
func CheckJobAt(n naming.Names, o Options, c CheckOptions, p Paths) (*batchv1.Job, error) {
	var errs invalid.Collector
	errs.Add(n.Validate())
	// resolve fills in the defaults even when it refuses an option, so
	// r.quota is the quota of the size the check runs against, or 0
	// where the size was refused (that refusal is among err's).
	r, err := o.resolve(p.complete())
	if !errs.Add(err) || ValidateVersion(r.Version) == nil {
		errs.Add(validateCheckVersion(p.complete().Version.String(), r.Version))
	}
	quota, of, larger := r.quota, "size "+r.Size.String(), "a larger size"
	if c.QuotaBackendBytes < 0 {
		errs.Addf("QuotaBackendBytes", c.QuotaBackendBytes, "must not be negative (0 means the quota of the size)")
		quota = 0
	} else if quota > 0 && c.QuotaBackendBytes > 0 && c.QuotaBackendBytes < quota {
		quota, of, larger = c.QuotaBackendBytes, "the running cluster's quotaBackendBytes", "a cluster with a larger quota"
	}
	l, err := c.load()
	if !errs.Add(err) && quota > 0 {
		if written := checkWriteBytes(l, c.Datascale); written > quota/2 {
			what := "etcdctl check perf"
			if c.Datascale {
				what += " and check datascale"
			}
			errs.Addf("Load", l.name, "%s would write about %s, more than half of the cluster's quota of %s bytes (%s): filling the quota stops every write; use a smaller load or %s",
				what, humanBytes(written), strconv.FormatInt(quota, 10), of, larger)
		}
	}
	image := c.Image
	if image == "" {
		// A valid Version makes a valid tag (VersionPattern,
		// MaxVersionLength); a refused one is among err's.
		image = EtcdImageRepository + ":v" + r.Version
	} else {
		errs.Add(validateImage("Image", image))
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return checkJob(n, image, l, c.Datascale), nil
}

// MinCheckVersion is the oldest etcd whose etcdctl the check Job can run:
// before v3.4, etcdctl speaks the v2 API unless ETCDCTL_API=3 is set
// (etcdctl's README: "If using released versions earlier than v3.4, set
// ETCDCTL_API=3"), and v2's etcdctl has no check command, so the Job
// would fail every time.
const MinCheckVersion = "3.4.0"

// validateCheckVersion refuses, at field, a valid version older than
// MinCheckVersion.
func validateCheckVersion(field, v string) error {
	pv, ok := parseVersion(v)
	if !ok {
		return nil // refused as a version already
	}
	min, _ := parseVersion(MinCheckVersion)
	if c := compareNumbers(pv[0], min[0]); c < 0 || (c == 0 && compareNumbers(pv[1], min[1]) < 0) {
		return invalid.Errorf(field, v, "must be %s or later for the check: an older etcdctl speaks etcd's v2 API by default, which has no check perf or check datascale, so the Job would fail every time", MinCheckVersion)
	}
	return nil
}

// maxImage bounds an image reference (registry, path, tag and digest fit
// well within it).
const maxImage = 1024

// validateImage checks an image reference as the kubelet reads a Pod's
// image (github.com/distribution/reference's ParseNormalizedNamed, what
// kubelet and containerd parse it with): a Job whose image the kubelet
// cannot parse never runs. Whitespace and control characters are named on
// their own, first.
func validateImage(field, image string) error {
	switch {
	case len(image) > maxImage:
		return invalid.Errorf(field, image, "must be at most %d bytes", maxImage)
	case strings.IndexFunc(image, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return invalid.Errorf(field, image, "must be an image reference without whitespace or control characters (e.g. %q)", EtcdImageRepository+":v"+DefaultVersion)
	}
	const rule = "must be a container image reference as the kubelet parses it ([registry/]repository[:tag][@digest], registry and repository in lowercase, e.g. %q): %s"
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return invalid.Errorf(field, image, rule, EtcdImageRepository+":v"+DefaultVersion, imageReason(err))
	}
	// The parser takes a first component with capital letters for a
	// registry host ("Upper/etcd" pulls from the host "upper"), where
	// one meant a Docker Hub namespace, which must be lowercase: the
	// pull fails either way. A registry host is case-insensitive, so
	// lowercase loses nothing.
	if d := reference.Domain(named); d != strings.ToLower(d) {
		return invalid.Errorf(field, image, rule, EtcdImageRepository+":v"+DefaultVersion,
			"its first component has capital letters, which makes it a registry host; write it in lowercase")
	}
	return nil
}

// imageReason is the parser's reason without the input it quotes (the
// rule is printed after the value, which is quoted and bounded).
func imageReason(err error) string {
	for _, known := range []error{
		reference.ErrNameContainsUppercase, reference.ErrNameEmpty, reference.ErrNameTooLong,
		reference.ErrTagInvalidFormat, reference.ErrDigestInvalidFormat, reference.ErrNameNotCanonical,
	} {
		if errors.Is(err, known) {
			return known.Error()
		}
	}
	switch msg := err.Error(); {
	case strings.HasSuffix(msg, "must be lowercase"):
		return reference.ErrNameContainsUppercase.Error()
	case strings.Contains(msg, "64-byte hexadecimal"):
		return "a repository name cannot be a 64-digit hexadecimal string (an image ID)"
	}
	return reference.ErrReferenceInvalidFormat.Error()
}

func checkJob(n naming.Names, image string, l checkLoad, datascale bool) *batchv1.Job {
	var podMeta metav1.ObjectMeta
	if n.Caller == naming.CallerCluster {
		podMeta.Labels = map[string]string{AllowToEtcdClusterLabel: n.Cluster}
	}
	container := func(name, check string) corev1.Container {
		c := corev1.Container{
			Name:    name,
			Image:   image,
			Command: []string{etcdctl},
			Args: []string{
				"check", check, "--load=" + l.name,
				"--endpoints=https://" + n.ClientEndpoint(),
				"--cacert=" + clientCertDir + "/ca.crt",
				"--cert=" + clientCertDir + "/tls.crt",
				"--key=" + clientCertDir + "/tls.key",
			},
			SecurityContext: restrictedContainer(),
			// The load generator must not be what limits the throughput
			// it measures.
			Resources:    jobResources(250, 256, 2000, 1024),
			VolumeMounts: []corev1.VolumeMount{{MountPath: clientCertDir, Name: clientCertVolume, ReadOnly: true}},
		}
		if check == "datascale" {
			// etcdctl v3.6's check datascale reads the member's /metrics
			// (process_resident_memory_bytes) with its own HTTP client:
			// it loads --cert and --key but never the --cacert roots
			// (etcdctl/ctlv3/command/util.go, endpointMemoryMetrics,
			// which sets a tls.Config with Certificates only), so the
			// request verifies the server against the system roots and
			// fails with "x509: certificate signed by unknown authority".
			// Go reads the system roots from SSL_CERT_FILE: pointing it
			// at the mounted CA makes that request trust the cluster's
			// CA, and only it. check perf needs nothing of the kind.
			c.Env = []corev1.EnvVar{{Name: "SSL_CERT_FILE", Value: clientCertDir + "/ca.crt"}}
		}
		return c
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr(false),
		SecurityContext:              restrictedPod(nobody, true, false),
		Containers:                   []corev1.Container{container("check-perf", "perf")},
		Volumes: []corev1.Volume{{
			Name:         clientCertVolume,
			VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: n.ClientSecret()}},
		}},
	}
	if datascale {
		// Init containers run in order and stop the pod on the first
		// failure: datascale runs only after perf passed.
		pod.InitContainers = pod.Containers
		pod.Containers = []corev1.Container{container("check-datascale", "datascale")}
	}
	return &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Name: n.CheckJob(), Namespace: n.Namespace},
		Spec: batchv1.JobSpec{
			BackoffLimit:            ptr(int32(0)),
			ActiveDeadlineSeconds:   ptr(int64(checkDeadlineSeconds)),
			TTLSecondsAfterFinished: ptr(int32(CheckTTLSeconds)),
			Template:                corev1.PodTemplateSpec{ObjectMeta: podMeta, Spec: pod},
		},
	}
}

// humanBytes prints b in decimal units, rounded, for messages.
func humanBytes(b int64) string {
	units := []string{"B", "kB", "MB", "GB", "TB"}
	v, i := float64(b), 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}
