package main

import (
	"fmt"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
)

// registerRelease gives a caller's command (render, plan, render snapshot,
// render check; etcd or cluster) the Helm release both ways helm users
// give it: --release NAME, or the command's one argument, as helm
// template's NAME (helm template NAME CHART, where the command is the
// chart): 'render cluster kubernetes-demo -n tenant-demo' is
// 'render cluster --release kubernetes-demo -n tenant-demo'. Given both
// ways, they must be the same release (a usage error otherwise).
func registerRelease(cmd *cobra.Command, caller naming.Caller, release *string) {
	fs := cmd.Flags()
	if caller == naming.CallerEtcd {
		fs.StringVar(release, "release", "", "the Helm release `NAME` (or the RELEASE argument): must be \""+naming.EtcdChartRelease+"\", the default")
		completeFlag(cmd, "release", naming.EtcdChartRelease)
	} else {
		fs.StringVar(release, "release", "", "the kubernetes chart's Helm release `NAME` (or the RELEASE argument); required.\n"+
			"The objects are named after it, \"NAME-etcd\" (kubernetes-demo-etcd for kubernetes-demo);\n"+
			"Cozystack names tenant cluster <name>'s release \""+clusterReleasePrefix+"<name>\", another NAME is warned about")
		completeFlag(cmd, "release")
	}
	cmd.Args = releaseArgs(release)
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 && caller == naming.CallerEtcd {
			return []cobra.Completion{naming.EtcdChartRelease}, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// releaseArgs takes the release from the command's one argument into
// *release, after the flags were parsed: a second argument, or an
// argument and a --release that differ, is a usage error.
func releaseArgs(release *string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return nil
		case len(args) > 1:
			return usagef("unexpected argument %s: the one argument is the release (RELEASE, as --release)", invalid.FormatValue(args[1]))
		case cmd.Flags().Changed("release") && *release != args[0]:
			return usagef("the release is given twice, as the argument %s and as --release %s: give it once",
				invalid.FormatValue(args[0]), invalid.FormatValue(*release))
		}
		*release = args[0]
		return nil
	}
}

// clusterReleasePrefix starts the release of every tenant cluster's
// kubernetes chart in Cozystack: tenant cluster <name> is release
// kubernetes-<name>, whose etcd is kubernetes-<name>-etcd (SPEC.md's
// callers, and the upstream kubernetes chart's "<release>-etcd").
const clusterReleasePrefix = "kubernetes-"

// releaseWarnings warn when a tenant cluster's release is not named as
// Cozystack names them: 'render cluster demo' renders demo-etcd, where
// the cluster "demo" of Cozystack is kubernetes-demo-etcd. The release
// is quoted as errors quote values (bounded, escaped).
func releaseWarnings(caller naming.Caller, release string) []string {
	if caller != naming.CallerCluster || release == "" || strings.HasPrefix(release, clusterReleasePrefix) {
		return nil
	}
	name, err := naming.ClusterEtcdName(release)
	if err != nil {
		return nil // the release is refused, which says more
	}
	return []string{fmt.Sprintf("release %s does not start with %q, as Cozystack names a tenant cluster's release (cluster %s: %s); the objects are named after the release as given: %s",
		invalid.FormatValue(release), clusterReleasePrefix, invalid.FormatValue(release), invalid.FormatValue(clusterReleasePrefix+release),
		invalid.FormatValue(name))}
}

// requireRelease refuses a tenant cluster's command without a release;
// command names it in the message ("render cluster", "plan cluster").
func requireRelease(caller naming.Caller, release, command string) error {
	if caller == naming.CallerCluster && release == "" {
		return usagef("--release is required for %s (or the release as its argument: %s RELEASE)", command, command)
	}
	return nil
}
