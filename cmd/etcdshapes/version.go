package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// modulePath is the library's module, which holds this command.
const modulePath = "github.com/etcdshapes/etcdshapes"

// buildVersion is what the build recorded about this binary
// (debug.ReadBuildInfo): the module version go install or go build stamped
// (v1.2.3 from the module proxy, a pseudo-version from a VCS checkout,
// "(devel)" otherwise), the Go version and platform, and the VCS revision
// when the build had one.
type buildVersion struct {
	Version   string `json:"version"`
	Module    string `json:"module"`
	Sum       string `json:"sum,omitempty"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
}

// versionOf reads a build's information; info nil (no build information,
// as in a binary built without module support) gives "(devel)".
func versionOf(info *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: "(devel)", Module: modulePath, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info == nil {
		return v
	}
	if info.GoVersion != "" {
		v.GoVersion = info.GoVersion
	}
	mod := &info.Main
	if mod.Path != modulePath {
		// Built as a dependency of another main module.
		for _, d := range info.Deps {
			if d.Path == modulePath {
				mod = d
				if d.Replace != nil {
					mod = d.Replace
				}
				break
			}
		}
	}
	if mod.Path == modulePath || mod != &info.Main {
		if mod.Version != "" {
			v.Version = mod.Version
		}
		v.Sum = mod.Sum
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOOS":
			v.Platform = s.Value + v.Platform[strings.Index(v.Platform, "/"):]
		case "GOARCH":
			v.Platform = v.Platform[:strings.Index(v.Platform, "/")+1] + s.Value
		}
	}
	return v
}

// readBuildVersion is this binary's.
func readBuildVersion() buildVersion {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return versionOf(info)
}

// moduleVersion is what --version prints.
func moduleVersion() string { return readBuildVersion().Version }

func (v buildVersion) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "etcdshapes %s\n", v.Version)
	fmt.Fprintf(&b, "  module:   %s %s\n", v.Module, v.Version)
	fmt.Fprintf(&b, "  go:       %s %s\n", v.GoVersion, v.Platform)
	if v.Revision != "" {
		mod := ""
		if v.Modified {
			mod = " (modified)"
		}
		fmt.Fprintf(&b, "  revision: %s%s\n", v.Revision, mod)
	}
	if v.Time != "" {
		fmt.Fprintf(&b, "  time:     %s\n", v.Time)
	}
	return b.String()
}

func newVersionCmd(e env) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version the build recorded",
		Long: `etcdshapes version prints the module version the build recorded (debug.ReadBuildInfo):
the release tag for 'go install github.com/etcdshapes/etcdshapes/cmd/etcdshapes@vX.Y.Z',
a pseudo-version for a build from a git checkout, "(devel)" when the build recorded none;
then the Go version, the platform and, when the build had them, the VCS revision and time.
'etcdshapes --version' prints the first line alone.`,
		Args: noArgs,
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "`FORMAT`: text or json")
	completeFlag(cmd, "output", "text", "json")
	cmd.RunE = runE(func(*cobra.Command, []string) error {
		v := readBuildVersion()
		var out string
		switch output {
		case "text":
			out = v.text()
		case "json":
			b, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				return err
			}
			out = string(b) + "\n"
		default:
			return usagef("--output must be text or json, not %q", output)
		}
		_, err := fmt.Fprint(e.stdout, out)
		return err
	})
	return cmd
}
