package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
)

const (
	synopsisSnapshotEtcd = `  etcdshapes render snapshot etcd    --namespace NS [--release etcd] --name NAME DESTINATION
  etcdshapes render snapshot etcd    --namespace NS [--release etcd] --schedule CRON [--keep N] DESTINATION
`
	synopsisSnapshotCluster = `  etcdshapes render snapshot cluster --namespace NS --release REL --name NAME DESTINATION
  etcdshapes render snapshot cluster --namespace NS --release REL --schedule CRON [--keep N] DESTINATION
`
	// synopsisRenderSnapshot is the overview's.
	synopsisRenderSnapshot = `  etcdshapes render snapshot etcd    --namespace NS [--release etcd]
                            (--name NAME | --schedule CRON [--keep N]) DESTINATION
  etcdshapes render snapshot cluster --namespace NS --release REL
                            (--name NAME | --schedule CRON [--keep N]) DESTINATION
`
	snapshotDetails = `
  DESTINATION is either S3:
    --s3-endpoint URL --s3-bucket BUCKET --s3-credentials-secret SECRET
    [--s3-key PREFIX/] [--s3-region REGION] [--s3-force-path-style]
  or a PersistentVolumeClaim:
    --pvc CLAIM [--pvc-subpath DIR]

  --namespace (-n) is the stack's tenant namespace ("tenant-…"), required; --release its
  Helm release: "etcd" for etcd (the default), "kubernetes-<name>" for cluster (required).

  --name      one EtcdSnapshot of the stack's EtcdCluster ("etcd", or "<release>-etcd"),
              written to "<PREFIX><NAME>.db" (S3) or "<DIR>/<NAME>.db" (PVC).
  --schedule  a CronJob taking one on a schedule ("0 3 * * *", "@daily") and keeping the
              last --keep (default 7) in a ring of names "<cluster>-snapshot-<i>", with a
              ServiceAccount, Role and RoleBinding that may create snapshots and get or
              delete only the ring's names.
  --s3-key    a prefix ending in "/" (the operator appends "<name>.db").

  Output is multi-document YAML on stdout; errors go to stderr with a non-zero exit.
`
)

var (
	renderSnapshotCmd = command{"etcdshapes render snapshot",
		"etcdshapes render snapshot renders what snapshots a stack's etcd: one EtcdSnapshot, or a CronJob taking them on a schedule.\n\nUsage:\n" +
			synopsisSnapshotEtcd + synopsisSnapshotCluster + snapshotDetails}
	renderSnapshotEtcdCmd = command{"etcdshapes render snapshot etcd",
		"etcdshapes render snapshot etcd renders what snapshots the etcd chart's etcd, once or on a schedule.\n\nUsage:\n" +
			synopsisSnapshotEtcd + snapshotDetails}
	renderSnapshotClusterCmd = command{"etcdshapes render snapshot cluster",
		"etcdshapes render snapshot cluster renders what snapshots a tenant cluster's etcd, once or on a schedule.\n\nUsage:\n" +
			synopsisSnapshotCluster + snapshotDetails}
)

// renderSnapshot is "render snapshot"; args follow "snapshot".
func renderSnapshot(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, renderSnapshotCmd.usage)
		return exitUsage
	}
	if isHelp(args[0]) {
		return renderSnapshotCmd.help(stdout, stderr)
	}
	cmd := renderSnapshotCmd
	switch args[0] {
	case etcdshapes.CallerEtcd:
		cmd = renderSnapshotEtcdCmd
	case etcdshapes.CallerCluster:
		cmd = renderSnapshotClusterCmd
	}
	objs, err := snapshotObjects(args[0], args[1:])
	if err == nil {
		var out []byte
		if out, err = etcdshapes.Marshal(objs); err == nil {
			_, err = stdout.Write(out)
		}
	}
	return cmd.exit(err, stdout, stderr)
}

func snapshotObjects(caller string, args []string) ([]etcdshapes.Object, error) {
	if caller != etcdshapes.CallerEtcd && caller != etcdshapes.CallerCluster {
		return nil, &usageError{fmt.Errorf("unknown caller %q (want etcd or cluster)", caller)}
	}
	fs := flag.NewFlagSet("etcdshapes render snapshot "+caller, flag.ContinueOnError)
	var (
		namespace, release, name, schedule string
		keep                               int
		s3                                 v1alpha2.S3Location
		pvc                                v1alpha2.PVCLocation
	)
	fs.StringVar(&namespace, "namespace", "", "")
	fs.StringVar(&namespace, "n", "", "")
	fs.StringVar(&release, "release", "", "")
	fs.StringVar(&name, "name", "", "")
	fs.StringVar(&schedule, "schedule", "", "")
	fs.IntVar(&keep, "keep", 0, "")
	fs.StringVar(&s3.Endpoint, "s3-endpoint", "", "")
	fs.StringVar(&s3.Bucket, "s3-bucket", "", "")
	fs.StringVar(&s3.Key, "s3-key", "", "")
	fs.StringVar(&s3.Region, "s3-region", "", "")
	fs.BoolVar(&s3.ForcePathStyle, "s3-force-path-style", false, "")
	fs.StringVar(&s3.CredentialsSecretRef.Name, "s3-credentials-secret", "", "")
	fs.StringVar(&pvc.ClaimName, "pvc", "", "")
	fs.StringVar(&pvc.SubPath, "pvc-subpath", "", "")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	usesS3 := set["s3-endpoint"] || set["s3-bucket"] || set["s3-key"] || set["s3-region"] || set["s3-force-path-style"] || set["s3-credentials-secret"]
	usesPVC := set["pvc"] || set["pvc-subpath"]
	switch {
	case fs.NArg() > 0:
		return nil, &usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case namespace == "":
		return nil, &usageError{errors.New("--namespace is required")}
	case caller == etcdshapes.CallerCluster && release == "":
		return nil, &usageError{errors.New("--release is required for render snapshot cluster")}
	case (name == "") == (schedule == ""):
		return nil, &usageError{errors.New("give exactly one of --name (one snapshot) or --schedule (a scheduled snapshot)")}
	case set["keep"] && schedule == "":
		return nil, &usageError{errors.New("--keep needs --schedule")}
	case usesS3 == usesPVC:
		return nil, &usageError{errors.New("give exactly one destination: --s3-* flags or --pvc")}
	}

	var n naming.Names
	var err error
	if caller == etcdshapes.CallerEtcd {
		if release == "" {
			release = naming.EtcdChartRelease
		}
		n, err = naming.ForEtcdChart(namespace, release)
	} else {
		n, err = naming.ForCluster(namespace, release)
	}
	if err != nil {
		return nil, err
	}
	var dest v1alpha2.SnapshotLocation
	if usesS3 {
		dest.S3 = &s3
	} else {
		dest.PVC = &pvc
	}

	if name != "" {
		s, err := etcd.Snapshot(n, name, dest)
		if err != nil {
			return nil, err
		}
		return []etcdshapes.Object{s}, nil
	}
	if set["keep"] && keep == 0 {
		return nil, naming.Errorf("keep", keep, "must be between 1 and %d", naming.MaxSnapshotKeep)
	}
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: schedule, Keep: keep, Destination: dest})
	if err != nil {
		return nil, err
	}
	objs := []etcdshapes.Object{s.ServiceAccount, s.Role, s.RoleBinding, s.CronJob}
	etcdshapes.Sort(objs)
	return objs, nil
}
