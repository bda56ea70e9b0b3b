package etcd

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// SnapshotFileSuffix is what etcd-operator appends to a snapshot's name to
// name its file under the destination's key prefix or subdirectory.
const SnapshotFileSuffix = ".db"

const (
	// maxS3Key is S3's limit for an object key, in bytes.
	maxS3Key = 1024
	// maxS3Region is generous: AWS regions are short, other S3 services
	// use free-form names.
	maxS3Region = 64
	// MaxS3EndpointLength bounds an S3 endpoint URL, in bytes. Its path is
	// the prefix of every request's, followed by the bucket (at most 63)
	// and the key (at most 1024 bytes, up to three times that
	// percent-encoded): 1024 keeps every request line within the 8000
	// octets RFC 9110 (section 4.1) asks every server to take, and holds
	// any host (253) and port with room for a path.
	MaxS3EndpointLength = 1024
	// MaxSnapshotPath bounds the file a snapshot writes on a PVC, in
	// bytes: <subPath>/<name>.db is at most 1024, an S3 key's limit, so
	// one layout serves both destinations (and sits far within Linux's
	// PATH_MAX of 4096 under any mount point). A destination's sub-path
	// is therefore at most MaxSnapshotPath-1-naming.MaxSnapshotName-3 =
	// 957 bytes, and an S3 key prefix 958.
	MaxSnapshotPath = maxS3Key
	// MaxPathSegment bounds each segment of a PVC sub-path, in bytes:
	// Linux's NAME_MAX, beyond which every filesystem refuses the name
	// (ENAMETOOLONG) and the snapshot would never be written.
	MaxPathSegment = 255
)

var (
	s3RegionPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]*$`)
)

// Snapshot builds a one-off EtcdSnapshot of the cluster n names, written to
// dest (exactly one of S3 or PVC). etcd-operator takes the snapshot once;
// the object is immutable, so another destination is another snapshot.
// The file is "<name>.db" under dest's key prefix or subdirectory; see
// SnapshotFile for the exact location to restore from.
//
// The names, the name and the destination are checked each on its own: a
// bad input returns every refusal (see invalid.List), the first being
// what a check that stops at its first failure reports.
func Snapshot(n naming.Names, name string, dest v1alpha2.SnapshotLocation) (*v1alpha2.EtcdSnapshot, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	c.Add(naming.ValidateSnapshotName("name", name))
	c.Add(ValidateSnapshotDestination("destination", dest))
	c.Add(validateOffMembers(n, "destination", dest))
	if err := c.Err(); err != nil {
		return nil, err
	}
	return snapshot(n, name, dest, nil), nil
}

// ValidateOneOffSnapshotName refuses a one-off snapshot named as a slot of
// the cluster's schedule ring ("<schedule>-<i>", naming.SnapshotSlot): the
// schedule's Job replaces its slots' snapshots, so a hand-made snapshot
// under such a name would be deleted by a scheduled run, and the ring's
// promise (it never touches a snapshot it did not make) broken. Snapshot
// builds the ring's snapshots too (as the schedule's Job does), so it does
// not check this: call it for a snapshot a person names (render snapshot
// --name does).
func ValidateOneOffSnapshotName(n naming.Names, name string) error {
	if err := n.Validate(); err != nil {
		return err
	}
	rest, ok := strings.CutPrefix(name, n.SnapshotSchedule()+"-")
	if !ok || rest == "" || strings.TrimLeft(rest, "0123456789") != "" {
		return nil
	}
	return invalid.Errorf("name", name, "is a slot of the cluster's snapshot schedule (%s-<i>), which the schedule replaces: name a one-off snapshot otherwise", n.SnapshotSchedule())
}

// validateOffMembers refuses a PVC destination that is an etcd member's
// own data volume: "data-<name>-..." of the cluster being backed up (the
// legacy "data-<name>-<i>" the cleanup hook deletes, and any member
// suffix), or "data-<etcd>-<i>" of another stack's etcd in the namespace
// (both callers' clusters end in "etcd": "etcd", "<release>-etcd"). A
// backup there sits in the failure domain it is meant to survive, takes
// the member's space (a full volume stops the member) and is deleted with
// the member's data, by the uninstall cleanup too.
func validateOffMembers(n naming.Names, field string, d v1alpha2.SnapshotLocation) error {
	if d.PVC == nil {
		return nil
	}
	claim := d.PVC.ClaimName
	if len(validation.IsDNS1123Subdomain(claim)) > 0 {
		return nil // refused as a name already
	}
	own := n.Cluster != "" && strings.HasPrefix(claim, "data-"+n.Cluster+"-")
	if !own && !isMemberVolumeName(claim) {
		return nil
	}
	return invalid.Errorf(field+".pvc.claimName", claim, "is an etcd member's data volume (data-<cluster>-<member>): a snapshot there is lost with the member's data (deleting the EtcdCluster deletes the member volumes, as the etcd chart's uninstall cleanup does) and fills the member's volume; use a PersistentVolumeClaim of its own")
}

// isMemberVolumeName reports whether claim has the form of another etcd
// stack's member volume: "data-etcd-<i>" or "data-<release>-etcd-<i>",
// <i> decimal.
func isMemberVolumeName(claim string) bool {
	rest, ok := strings.CutPrefix(claim, "data-")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 || i == len(rest)-1 {
		return false
	}
	for _, r := range rest[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	cluster := rest[:i]
	return cluster == "etcd" || strings.HasSuffix(cluster, "-etcd")
}

func snapshot(n naming.Names, name string, dest v1alpha2.SnapshotLocation, labels map[string]string) *v1alpha2.EtcdSnapshot {
	var d v1alpha2.SnapshotLocation
	dest.DeepCopyInto(&d)
	return &v1alpha2.EtcdSnapshot{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha2.APIVersion, Kind: "EtcdSnapshot"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: n.Namespace, Labels: labels},
		Spec: v1alpha2.EtcdSnapshotSpec{
			ClusterRef:  corev1.LocalObjectReference{Name: n.Cluster},
			Destination: d,
		},
	}
}

// SnapshotFile is the exact location of the file a snapshot named name
// writes to dest, in the form bootstrap.restore.source takes: the S3 key
// "<prefix><name>.db" or the PVC sub-path "<subPath>/<name>.db". dest must
// pass ValidateSnapshotDestination, which requires an S3 prefix to be empty
// or end in "/" so that the operator's "appends <name>.db" has one
// meaning. A finished snapshot's status.artifact.uri names the same file.
// A bad name and a bad destination are both refused (see invalid.List).
func SnapshotFile(dest v1alpha2.SnapshotLocation, name string) (v1alpha2.SnapshotLocation, error) {
	var c invalid.Collector
	c.Add(naming.ValidateSnapshotName("name", name))
	c.Add(ValidateSnapshotDestination("destination", dest))
	if err := c.Err(); err != nil {
		return v1alpha2.SnapshotLocation{}, err
	}
	var out v1alpha2.SnapshotLocation
	dest.DeepCopyInto(&out)
	file := name + SnapshotFileSuffix
	if out.S3 != nil {
		out.S3.Key += file
	} else {
		out.PVC.SubPath = path.Join(out.PVC.SubPath, file)
	}
	return out, nil
}

// SnapshotSucceeded reports whether etcd-operator took and stored the
// snapshot: its phase is v1alpha2.SnapshotPhaseComplete (the only phase
// whose Ready condition is True) and it is not being deleted. A nil
// snapshot has not succeeded.
func SnapshotSucceeded(s *v1alpha2.EtcdSnapshot) bool {
	return s != nil && s.Status != nil && s.Status.Phase == v1alpha2.SnapshotPhaseComplete && s.DeletionTimestamp == nil
}

// NewestSnapshot names, among the live EtcdSnapshots snaps (a List the API
// server returned, or `kubectl get etcdsnapshots -o yaml` read into one),
// the newest of the cluster n names that succeeded (SnapshotSucceeded):
// the last good backup, the one to restore from (SnapshotSource), and the
// one a schedule's ring never deletes. Snapshots of other clusters (by
// spec.clusterRef.name) or other namespaces are ignored; a snapshot
// without a namespace is taken as n's. Newest is by
// metadata.creationTimestamp, and between two created in the same second,
// the greater name. A schedule's slot 0 is not the newest: the ring reuses
// its slots in turn.
//
// With none, it returns an error (field "snapshots") that says how many
// snapshots of the cluster there are in each phase.
func NewestSnapshot(n naming.Names, snaps []v1alpha2.EtcdSnapshot) (*v1alpha2.EtcdSnapshot, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	var newest *v1alpha2.EtcdSnapshot
	phases := map[string]int{}
	var order []string
	for i := range snaps {
		s := &snaps[i]
		if s.Spec.ClusterRef.Name != n.Cluster || (s.Namespace != "" && s.Namespace != n.Namespace) {
			continue
		}
		phase := "no phase yet"
		if s.Status != nil && s.Status.Phase != "" {
			phase = s.Status.Phase
		}
		if s.DeletionTimestamp != nil {
			phase = "being deleted"
		}
		if phases[phase] == 0 {
			order = append(order, phase)
		}
		phases[phase]++
		if !SnapshotSucceeded(s) {
			continue
		}
		if newest == nil || newest.CreationTimestamp.Before(&s.CreationTimestamp) ||
			(newest.CreationTimestamp.Equal(&s.CreationTimestamp) && s.Name > newest.Name) {
			newest = s
		}
	}
	if newest != nil {
		return newest, nil
	}
	listed := fmt.Sprintf("%d snapshots", len(snaps))
	if len(snaps) == 1 {
		listed = "1 snapshot"
	}
	if len(order) == 0 {
		return nil, invalid.Errorf("snapshots", listed, "hold no EtcdSnapshot of cluster %s/%s", n.Namespace, n.Cluster)
	}
	counts := make([]string, len(order))
	for i, p := range order {
		counts[i] = fmt.Sprintf("%d %s", phases[p], p)
	}
	return nil, invalid.Errorf("snapshots", listed, "hold no EtcdSnapshot of cluster %s/%s that completed (%s): there is nothing to restore from",
		n.Namespace, n.Cluster, strings.Join(counts, ", "))
}

// SnapshotSource is the file a snapshot that succeeded wrote, in the form
// bootstrap.restore.source takes (Restore): SnapshotFile of its
// spec.destination and its name. A snapshot that has not succeeded is
// refused (field "snapshot.status.phase"): its file may be missing or
// partial.
//
//	snap, err := etcd.NewestSnapshot(n, list.Items)
//	src, err := etcd.SnapshotSource(snap)
func SnapshotSource(s *v1alpha2.EtcdSnapshot) (v1alpha2.SnapshotLocation, error) {
	switch {
	case s == nil:
		return v1alpha2.SnapshotLocation{}, invalid.Errorf("snapshot", nil, "must be an EtcdSnapshot, not nil")
	case !SnapshotSucceeded(s):
		phase := ""
		if s.Status != nil {
			phase = s.Status.Phase
		}
		why := "must be " + v1alpha2.SnapshotPhaseComplete + " to restore from (the snapshot's file is written and whole only then)"
		if s.DeletionTimestamp != nil {
			why = "belongs to a snapshot being deleted: restore from another"
		}
		return v1alpha2.SnapshotLocation{}, invalid.Errorf("snapshot.status.phase", phase, "%s", why)
	}
	return SnapshotFile(s.Spec.Destination, s.Name)
}

// Restore returns a modifier that seeds a new EtcdCluster from the snapshot
// file at src (see SnapshotFile): spec.bootstrap.restore.source. The
// operator consults it only at first bootstrap, and the CRD refuses adding,
// changing or removing it on an existing cluster (Plan reports that as
// refused), so restore into a new cluster or one deleted first.
//
//	objs, _ := etcdshapes.ClusterStack(o)
//	err := apply.Modify(objs, apply.ForKind(etcd.Restore(src)))
//
// A bad source and a memory-backed cluster are both refused (see
// invalid.List), the source first; a nil cluster is refused, not a panic.
func Restore(src v1alpha2.SnapshotLocation) func(*v1alpha2.EtcdCluster) error {
	return func(c *v1alpha2.EtcdCluster) error {
		var errs invalid.Collector
		errs.Add(ValidateRestoreSource("bootstrap.restore.source", src))
		if c == nil {
			errs.Addf("bootstrap.restore", nil, "needs an EtcdCluster to restore into")
			return errs.Err()
		}
		if c.Spec.Storage != nil && c.Spec.Storage.Medium == v1alpha2.StorageMediumMemory {
			// The CRD refuses it: a member restart would re-restore the
			// snapshot from tmpfs and revert writes.
			errs.Addf("bootstrap.restore", "Memory", "cannot restore into a memory-backed cluster (spec.storage.medium=Memory)")
		}
		if err := errs.Err(); err != nil {
			return err
		}
		var s v1alpha2.SnapshotLocation
		src.DeepCopyInto(&s)
		c.Spec.Bootstrap = &v1alpha2.BootstrapSpec{Restore: &v1alpha2.RestoreSpec{Source: s}}
		return nil
	}
}

// ValidateSnapshotDestination checks where a snapshot is written: exactly
// one of S3 (endpoint URL, bucket, credentials Secret; key is a prefix,
// empty or ending in "/") or PVC (claim; subPath is a relative
// directory). field prefixes the reported field names. Every bad field of
// the location is refused (see invalid.List), in the order above.
func ValidateSnapshotDestination(field string, d v1alpha2.SnapshotLocation) error {
	return validateLocation(field, d, false)
}

// ValidateRestoreSource checks a bootstrap.restore.source: as a
// destination, except that the S3 key or the PVC subPath is required and
// names the exact snapshot file, as the CRD demands. Every bad field is
// refused, as for a destination.
func ValidateRestoreSource(field string, d v1alpha2.SnapshotLocation) error {
	if err := validateLocation(field, d, true); err != nil {
		return err
	}
	// A member's data volume holds no snapshot a stack wrote (Snapshot
	// refuses it as a destination), and the restored cluster's first
	// member may mount the same volume it restores from.
	if d.PVC != nil && isMemberVolumeName(d.PVC.ClaimName) {
		return invalid.Errorf(field+".pvc.claimName", d.PVC.ClaimName, "is an etcd member's data volume (data-<cluster>-<member>), which holds no snapshot: restore from the PersistentVolumeClaim or S3 location the snapshot was written to")
	}
	return nil
}

func validateLocation(field string, d v1alpha2.SnapshotLocation, exact bool) error {
	switch {
	case d.S3 != nil && d.PVC != nil:
		return invalid.Errorf(field, "s3 and pvc", "must set exactly one of s3 or pvc")
	case d.S3 == nil && d.PVC == nil:
		return invalid.Errorf(field, "", "must set exactly one of s3 or pvc")
	case d.S3 != nil:
		return validateS3(field+".s3", d.S3, exact)
	default:
		return validatePVC(field+".pvc", d.PVC, exact)
	}
}

// validateS3 refuses each bad field of s: endpoint, bucket, region,
// credentials Secret and key are independent, so each is checked whatever
// the others hold; a field's own rules build on each other and give at
// most one refusal.
func validateS3(field string, s *v1alpha2.S3Location, exact bool) error {
	var c invalid.Collector
	c.Add(validateEndpoint(field+".endpoint", s.Endpoint))
	if rule := s3BucketRule(s.Bucket); rule != "" {
		c.Addf(field+".bucket", s.Bucket, "must be an S3 bucket name: %s", rule)
	}
	if len(s.Region) > maxS3Region || !s3RegionPattern.MatchString(s.Region) {
		c.Addf(field+".region", s.Region, "must be at most %d letters, digits, '.', '_' or '-'", maxS3Region)
	}
	if s.CredentialsSecretRef.Name == "" {
		c.Addf(field+".credentialsSecretRef.name", "", "must name a Secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	} else if errs := validation.IsDNS1123Subdomain(s.CredentialsSecretRef.Name); len(errs) > 0 {
		c.Addf(field+".credentialsSecretRef.name", s.CredentialsSecretRef.Name, "must be a Secret name (DNS-1123 subdomain)")
	}
	c.Add(validatePath(field+".key", s.Key, exact, s3Key))
	return c.Err()
}

// validateEndpoint checks an S3 endpoint URL as the snapshot agent uses
// it: etcd-operator passes it to the AWS SDK for Go v2 as the S3 client's
// BaseEndpoint, whose endpoint rules read it with url.Parse and take only
// an http or https URL without a query (smithy-go's rulesfn.ParseURL); a
// path is kept as a prefix. Beyond that it must name a host, at a port in
// 1-65535 when it gives one: "https://:443" (what an unset $S3_HOST
// gives) or port 99999 parse, and every snapshot then fails to connect.
// Each rule presupposes the one before (a URL is parsed before its parts
// are looked at).
func validateEndpoint(field, endpoint string) error {
	const example = "e.g. \"https://s3.amazonaws.com\" or \"http://minio.tenant-root.svc:9000\""
	if endpoint == "" {
		return invalid.Errorf(field, endpoint, "must not be empty (%s)", example)
	}
	// Every refusal quotes the endpoint as written but for its userinfo,
	// whatever else is wrong with it: a password must not reach a
	// terminal or a log because the URL also fails another rule.
	shown := redactUser(endpoint)
	if len(endpoint) > MaxS3EndpointLength {
		return invalid.Errorf(field, shown, "is longer than %d bytes (with a bucket and a 1024-byte key it would pass the 8000 octets of a request line every server takes)", MaxS3EndpointLength)
	}
	if strings.IndexFunc(endpoint, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return invalid.Errorf(field, shown, "must be printable ASCII without spaces (an internationalized host in its xn-- form)")
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http"):
		return invalid.Errorf(field, shown, "must be an http or https URL, %s", example)
	case u.User != nil:
		// The URL would end up in the object, readable by anyone who can
		// read snapshots.
		return invalid.Errorf(field, shown, "must not carry credentials; use credentialsSecretRef")
	case strings.ContainsAny(endpoint, "?#"):
		return invalid.Errorf(field, shown, "must not have a query or fragment (the AWS SDK refuses an endpoint with a query)")
	case u.Hostname() == "":
		return invalid.Errorf(field, shown, "must name a host (an unset variable in \"https://$S3_HOST:443\" gives \"https://:443\"), %s", example)
	}
	if port := u.Port(); port != "" || strings.HasSuffix(u.Host, ":") {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return invalid.Errorf(field, shown, "must have a port from 1 to 65535, or none (the scheme's)")
		}
	}
	if host := u.Hostname(); net.ParseIP(host) == nil && (strings.Contains(u.Host, "[") || !isDNSName(host)) {
		return invalid.Errorf(field, shown, "must name its host by a DNS name (labels of at most 63 letters, digits and '-', joined by '.') or an IP address")
	}
	return nil
}

// isDNSName reports whether host is a DNS name, in any case, a final "."
// allowed: DNS-1123 labels, at most 253 characters in all.
func isDNSName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || len(validation.IsDNS1123Subdomain(host)) > 0 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if len(validation.IsDNS1123Label(label)) > 0 {
			return false
		}
	}
	return true
}

// s3Key is the rules of an S3 key (exact) or key prefix (not exact).
var s3Key = pathRules{
	missing: "must be the exact object key of the snapshot file (e.g. \"etcd/<snapshot>.db\")",
	// S3's limit for the key; a prefix keeps room for the
	// "<snapshot>.db" the operator appends.
	max:       maxS3Key,
	appended:  naming.MaxSnapshotName + len(SnapshotFileSuffix),
	absolute:  "must not start with \"/\"",
	directory: "must be a prefix ending in \"/\" (the operator appends \"<snapshot>.db\")",
}

// validatePVC refuses a bad claim name and a bad sub-path, each whatever
// the other holds.
func validatePVC(field string, p *v1alpha2.PVCLocation, exact bool) error {
	var c invalid.Collector
	if p.ClaimName == "" {
		c.Addf(field+".claimName", p.ClaimName, "must name a PersistentVolumeClaim")
	} else if errs := validation.IsDNS1123Subdomain(p.ClaimName); len(errs) > 0 {
		c.Addf(field+".claimName", p.ClaimName, "must be a PersistentVolumeClaim name (DNS-1123 subdomain)")
	}
	c.Add(validatePath(field+".subPath", p.SubPath, exact, pvcSubPath))
	return c.Err()
}

// pvcSubPath is the rules of a PVC sub-path (exact: the snapshot file;
// else a directory).
var pvcSubPath = pathRules{
	missing: "must be the exact path of the snapshot file on the volume (e.g. \"etcd/<snapshot>.db\")",
	// The file's path, <subPath>/<snapshot>.db, is at most
	// MaxSnapshotPath; each segment at most MaxPathSegment.
	max:        MaxSnapshotPath,
	appended:   len("/") + naming.MaxSnapshotName + len(SnapshotFileSuffix),
	maxSegment: MaxPathSegment,
	absolute:   "must be relative to the volume",
}

// pathRules are where the two paths of a snapshot, an S3 key and a PVC
// sub-path, differ: both are relative slash-separated paths naming the
// snapshot file (exact) or where snapshots go (not exact).
type pathRules struct {
	// missing is the rule an empty exact path breaks (an empty prefix is
	// the top).
	missing string
	// max bounds the snapshot file's path (an exact path), in bytes;
	// appended is what the operator appends to a path that is not exact
	// (a prefix or a directory), which max bounds with it.
	max, appended int
	// maxSegment bounds each segment in bytes; 0 means no bound.
	maxSegment int
	// absolute is the rule a leading "/" breaks.
	absolute string
	// directory, when set, is the rule a prefix (not exact) that does not
	// end in "/" breaks.
	directory string
}

// validatePath checks p against r and then its segments (see
// validateSegments); each rule presupposes the one before, so a path has at
// most one refusal.
func validatePath(field, p string, exact bool, r pathRules) error {
	switch {
	case exact && p == "":
		return invalid.Errorf(field, p, "%s", r.missing)
	case p == "":
		return nil
	case exact && len(p) > r.max:
		return invalid.Errorf(field, p, "must be at most %d bytes", r.max)
	case !exact && len(p) > r.max-r.appended:
		return invalid.Errorf(field, p, "must be at most %d bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to %d characters) the file's path is at most %d", r.max-r.appended, naming.MaxSnapshotName, r.max)
	case strings.HasPrefix(p, "/"):
		return invalid.Errorf(field, p, "%s", r.absolute)
	case !exact && r.directory != "" && !strings.HasSuffix(p, "/"):
		return invalid.Errorf(field, p, "%s", r.directory)
	case exact && strings.HasSuffix(p, "/"):
		return invalid.Errorf(field, p, "must name a file, not end in \"/\"")
	}
	return validateSegments(field, p, r.maxSegment)
}

// validateSegments refuses empty, "." and ".." path segments and control
// characters: an escape from the prefix or the volume, or a key that two
// spellings reach. A trailing "/" (a prefix's or a directory's) ends the
// last segment and opens none; every refusal quotes p whole, as the
// caller wrote it, never the path without its "/".
func validateSegments(field, p string, maxSegment int) error {
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return invalid.Errorf(field, p, "must not contain empty, \".\" or \"..\" path segments")
		}
		if maxSegment > 0 && len(seg) > maxSegment {
			return invalid.Errorf(field, p, "must have path segments of at most %d bytes (Linux's NAME_MAX: a longer file or directory name is refused with ENAMETOOLONG)", maxSegment)
		}
	}
	if bad := hiddenRune(p); bad != "" {
		return invalid.Errorf(field, p, "must be valid UTF-8 without control, format or line separator characters (it holds %s): etcd-operator writes the snapshot under this path, and restore must name it byte for byte", bad)
	}
	return nil
}

// hiddenRune names the first character of p that a snapshot path must not
// hold, or is "": an invalid UTF-8 byte, a control character (C0, DEL,
// C1: the YAML printer refuses or rewrites DEL and the C1 controls, a NEL
// becoming a space), a format character (Unicode's Cf: the BOM, zero
// widths, the bidirectional overrides, all invisible), U+2028 and U+2029,
// or a noncharacter (U+FFFE, U+FFFF, U+FDD0-U+FDEF, U+nFFFE, U+nFFFF).
// Each makes a key that two spellings reach, or that prints as another.
func hiddenRune(p string) string {
	for i, r := range p {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(p[i:], string(utf8.RuneError)):
			return fmt.Sprintf("the invalid UTF-8 byte 0x%02x", p[i])
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029',
			r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// redactUser is endpoint as written but for its userinfo (what lies
// between "//" and the authority's last "@"), which reads "REDACTED": the
// refusal must not echo a password, and quotes the rest of the URL as the
// caller wrote it, not as url.URL respells it (a lowercased scheme,
// re-escaped path).
func redactUser(endpoint string) string {
	// The authority starts after "//", or at the start where there is
	// none ("admin:secret@host" without a scheme).
	i := strings.Index(endpoint, "//")
	if i < 0 {
		i = -2
	}
	rest := endpoint[i+2:]
	authority := rest
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		authority = rest[:j]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return endpoint
	}
	return endpoint[:i+2] + "REDACTED" + rest[at:]
}
