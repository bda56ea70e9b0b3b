package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const (
	synopsisSnapshotEtcd = `  etcdshapes render snapshot etcd    [RELEASE] --namespace NS --name NAME DESTINATION
  etcdshapes render snapshot etcd    [RELEASE] --namespace NS --schedule CRON [--keep N] DESTINATION
`
	synopsisSnapshotCluster = `  etcdshapes render snapshot cluster RELEASE --namespace NS --name NAME DESTINATION
  etcdshapes render snapshot cluster RELEASE --namespace NS --schedule CRON [--keep N] DESTINATION
`
	// synopsisRenderSnapshot is the overview's.
	synopsisRenderSnapshot = `  etcdshapes render snapshot etcd    [RELEASE] --namespace NS
                            (--name NAME | --schedule CRON [--keep N]) DESTINATION
  etcdshapes render snapshot cluster RELEASE --namespace NS
                            (--name NAME | --schedule CRON [--keep N]) DESTINATION
`
	snapshotDetails = `
  DESTINATION is flags, either S3:
    --s3-endpoint URL --s3-bucket BUCKET --s3-credentials-secret SECRET
    [--s3-key PREFIX/] [--s3-region REGION] [--s3-force-path-style]
  or a PersistentVolumeClaim:
    --pvc CLAIM [--pvc-subpath DIR]

  --name      one EtcdSnapshot of the stack's EtcdCluster ("etcd", or "<release>-etcd"),
              written to "<PREFIX><NAME>.db" (S3) or "<DIR>/<NAME>.db" (PVC).
  --schedule  a CronJob taking one on a schedule ("0 3 * * *", "@daily") and keeping the
              last --keep (default 7) in a ring of names "<cluster>-snapshot-<i>", with a
              ServiceAccount, Role and RoleBinding that may create snapshots and get or
              delete only the ring's names.
  --s3-key    a prefix ending in "/" (the operator appends "<name>.db"); it and
              --pvc-subpath hold valid UTF-8 without control, format or line
              separator characters, and leave the file's path within 1024 bytes
              (S3's key limit): at most 958 and 957 bytes, the sub-path's segments
              at most 255 (NAME_MAX).
  --s3-endpoint an http or https URL naming a host (not "https://:443"), a port
              from 1 to 65535 if any, no credentials, query or fragment, at most
              1024 bytes.
  --schedule  is read as Kubernetes reads it (robfig/cron's standard parser, in
              kube-controller-manager's time zone); TZ= and CRON_TZ=, @every, a
              schedule that never fires ("0 3 30 2 *") and one longer than 1024
              bytes are refused.

  Output is multi-document YAML on stdout (-o json, --output-dir and --show-only as for
  'etcdshapes render etcd'); errors go to stderr with a non-zero exit.
`
)

// newRenderSnapshotCmd is 'etcdshapes render snapshot' and its two
// callers.
func newRenderSnapshotCmd(e env) *cobra.Command {
	return callersCommand(e, &cobra.Command{
		Use:   "snapshot etcd|cluster",
		Short: "An EtcdSnapshot, or a CronJob taking them on a schedule, to S3 or a PVC",
		Long: "etcdshapes render snapshot renders what snapshots a stack's etcd: one EtcdSnapshot, or a CronJob taking them on a schedule.\n\n" +
			synopsisSnapshotEtcd + synopsisSnapshotCluster + aboutRelease + snapshotDetails,
	}, newRenderSnapshotCallerCmd)
}

// snapshotFlags are the flags of render snapshot etcd|cluster.
type snapshotFlags struct {
	namespace, release, name, schedule string
	keep                               int
	s3                                 v1alpha2.S3Location
	pvc                                v1alpha2.PVCLocation
}

func newRenderSnapshotCallerCmd(e env, caller naming.Caller) *cobra.Command {
	var sf snapshotFlags
	cmd := callerCommand(caller, callerHelp{
		use:   "etcd [RELEASE] --namespace NS (--name NAME | --schedule CRON [--keep N]) (--s3-endpoint URL ... | --pvc CLAIM) [flags]",
		short: "Snapshot the etcd chart's etcd, once or on a schedule",
		long: "etcdshapes render snapshot etcd renders what snapshots the etcd chart's etcd, once or on a schedule.\n\n" +
			synopsisSnapshotEtcd + aboutRelease + snapshotDetails,
	}, callerHelp{
		use:   "cluster RELEASE --namespace NS (--name NAME | --schedule CRON [--keep N]) (--s3-endpoint URL ... | --pvc CLAIM) [flags]",
		short: "Snapshot a tenant cluster's etcd, once or on a schedule",
		long: "etcdshapes render snapshot cluster renders what snapshots a tenant cluster's etcd, once or on a schedule.\n\n" +
			synopsisSnapshotCluster + aboutRelease + snapshotDetails,
	})
	fs := cmd.Flags()
	fs.StringVarP(&sf.namespace, "namespace", "n", "", "the stack's tenant namespace `NS` (\"tenant-…\"); required")
	registerRelease(cmd, caller, &sf.release)
	fs.StringVar(&sf.name, "name", "", "one EtcdSnapshot `NAME`")
	fs.StringVar(&sf.schedule, "schedule", "", "a CronJob taking snapshots on the `CRON` schedule (\"0 3 * * *\", \"@daily\"; at most 1024 bytes)")
	fs.Var(&decimalFlag{n: &sf.keep}, "keep", fmt.Sprintf("with --schedule: keep the last `N` snapshots (default %d), N in decimal digits", etcd.DefaultSnapshotKeep))
	fs.StringVar(&sf.s3.Endpoint, "s3-endpoint", "", "the S3 endpoint `URL` (http or https, a host, at most 1024 bytes)")
	fs.StringVar(&sf.s3.Bucket, "s3-bucket", "", "the S3 `BUCKET`")
	fs.StringVar(&sf.s3.Key, "s3-key", "", "the S3 key `PREFIX/` (ends in \"/\", at most 958 bytes; the operator appends \"<name>.db\")")
	fs.StringVar(&sf.s3.Region, "s3-region", "", "the S3 `REGION`")
	fs.BoolVar(&sf.s3.ForcePathStyle, "s3-force-path-style", false, "path-style S3 URLs")
	fs.StringVar(&sf.s3.CredentialsSecretRef.Name, "s3-credentials-secret", "", "the `SECRET` holding the S3 credentials")
	fs.StringVar(&sf.pvc.ClaimName, "pvc", "", "the PersistentVolumeClaim `CLAIM` to write to")
	fs.StringVar(&sf.pvc.SubPath, "pvc-subpath", "", "the `DIR` inside the claim (at most 957 bytes, segments of at most 255)")
	printObjects(cmd, e, "", func() string { return stackName(caller, sf.namespace, sf.release) }, func() ([]etcdshapes.Object, error) {
		objs, err := snapshotObjects(caller, &sf, cmd.Flags())
		if err != nil {
			return nil, inFlagTerms(err, snapshotFlagFields...)
		}
		warn(e.stderr, releaseWarnings(caller, sf.release))
		return objs, nil
	})
	return cmd
}

// snapshotFlagFields are the flags of render snapshot by the fields the
// snapshot builders refuse (the names are refused under their flags,
// namePaths): every input of the command is a flag, so a field is always
// its flag's.
var snapshotFlagFields = []flagField{
	{field: "name", flag: "--name"},
	{field: "schedule", flag: "--schedule"},
	{field: "keep", flag: "--keep"},
	{field: "destination.s3.endpoint", flag: "--s3-endpoint"},
	{field: "destination.s3.bucket", flag: "--s3-bucket"},
	{field: "destination.s3.key", flag: "--s3-key"},
	{field: "destination.s3.region", flag: "--s3-region"},
	{field: "destination.s3.credentialsSecretRef.name", flag: "--s3-credentials-secret"},
	{field: "destination.pvc.claimName", flag: "--pvc"},
	{field: "destination.pvc.subPath", flag: "--pvc-subpath"},
}

// renderSnapshot runs 'etcdshapes render snapshot ARGS...'.
func renderSnapshot(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"render", "snapshot"}, args...), nil, stdout, stderr)
}

func snapshotObjects(caller naming.Caller, f *snapshotFlags, fs *pflag.FlagSet) ([]etcdshapes.Object, error) {
	set := func(name string) bool { return fs.Changed(name) }
	usesS3 := set("s3-endpoint") || set("s3-bucket") || set("s3-key") || set("s3-region") || set("s3-force-path-style") || set("s3-credentials-secret")
	usesPVC := set("pvc") || set("pvc-subpath")
	namespace, release, name, schedule, keep := f.namespace, f.release, f.name, f.schedule, f.keep
	if namespace == "" {
		return nil, &usageError{errors.New("--namespace is required")}
	}
	if err := requireRelease(caller, release, "render snapshot cluster"); err != nil {
		return nil, err
	}
	switch {
	case (name == "") == (schedule == ""):
		return nil, &usageError{errors.New("give exactly one of --name (one snapshot) or --schedule (a scheduled snapshot)")}
	case set("keep") && schedule == "":
		return nil, &usageError{errors.New("--keep needs --schedule")}
	case usesS3 == usesPVC:
		return nil, &usageError{errors.New("give exactly one destination: --s3-* flags or --pvc")}
	}

	// Every refusal is collected, in the order of the checks
	// (names, --keep, then the builder's), so that one run names
	// every bad flag.
	var c invalid.Collector
	var n naming.Names
	var err error
	if caller == naming.CallerEtcd {
		if release == "" {
			release = naming.EtcdChartRelease
		}
		n, err = naming.ForEtcdChartAt(namespace, release, namePaths)
	} else {
		n, err = naming.ForClusterAt(namespace, release, namePaths)
	}
	// Unmade names: the builder's "names" refusal would only repeat it.
	reported := map[string]bool{"names": c.Add(err)}
	builderErr := func(err error) error {
		c.AddExcept(err, reported)
		return c.Err()
	}
	var dest v1alpha2.SnapshotLocation
	if usesS3 {
		s3 := f.s3
		dest.S3 = &s3
	} else {
		pvc := f.pvc
		dest.PVC = &pvc
	}

	if name != "" {
		s, err := etcd.Snapshot(n, name, dest)
		if err == nil {
			// A person names this snapshot: never a slot of the ring.
			err = etcd.ValidateOneOffSnapshotName(n, name)
		}
		if err := builderErr(err); err != nil {
			return nil, err
		}
		return []etcdshapes.Object{s}, nil
	}
	if set("keep") && keep == 0 {
		// 0 is the library's "default"; typed, it is a bad --keep.
		c.Addf("keep", keep, "%s", naming.KeepRule)
	}
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: schedule, Keep: keep, Destination: dest})
	if err := builderErr(err); err != nil {
		return nil, err
	}
	objs := []etcdshapes.Object{s.ServiceAccount, s.Role, s.RoleBinding, s.CronJob}
	etcdshapes.Sort(objs)
	return objs, nil
}

// decimalFlag is an int flag read as decimal digits only, with an
// optional minus sign: pflag's IntVar reads a number in any base Go
// spells ("010" is 8, "0x10" 16, "1_0" 10) and "-0" as 0, so that a
// --keep 010 kept 8 snapshots. A leading zero, a base prefix, "+", "_" or
// "-0" is refused as written; the number is what its digits say.
type decimalFlag struct{ n *int }

func (d *decimalFlag) String() string {
	if d.n == nil {
		return "0"
	}
	return strconv.Itoa(*d.n)
}

func (d *decimalFlag) Type() string { return "int" }

func (d *decimalFlag) Set(s string) error {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" || len(digits) > 1 && digits[0] == '0' || s == "-0" {
		return errors.New("must be a whole number in decimal digits, without a leading zero, a base prefix or a plus sign")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("is out of range")
	}
	*d.n = n
	return nil
}
