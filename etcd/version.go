package etcd

import (
	"fmt"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// VersionPattern is the grammar of an etcd version: X.Y.Z in decimal
// without leading zeros (semver's rule for its numbers), and nothing else.
// etcd's release images are tagged v<X.Y.Z> exactly as etcd spells its
// versions ("v3.6.11"): "3.6.011" would name the image tag v3.6.011, which
// does not exist. The EtcdCluster CRD's pattern (^\d+\.\d+\.\d+$) refuses
// a pre-release or build suffix ("3.6.11-rc.0", "3.6.11+build"), which
// this pattern refuses too; it also admits leading zeros, which this one
// does not. Each number has at most MaxVersionDigits digits.
const VersionPattern = `^(0|[1-9][0-9]{0,17})\.(0|[1-9][0-9]{0,17})\.(0|[1-9][0-9]{0,17})$`

// MaxVersionDigits bounds each number of a version: etcd reads its own
// and its peers' versions into int64s (github.com/coreos/go-semver's
// Version, which etcd's version and membership code use), so a number
// past 9223372036854775807 is one no etcd can run as or agree on; 18
// digits are always below it.
const MaxVersionDigits = 18

// MaxVersionLength bounds a version: three numbers of MaxVersionDigits
// and two dots (the image tag "v<version>" fits the image reference
// grammar's 128 characters well within it).
const MaxVersionLength = 3*MaxVersionDigits + 2

// ValidateVersion checks an etcd version: X.Y.Z without leading zeros (see
// VersionPattern), at most MaxVersionLength bytes.
func ValidateVersion(v string) error {
	return GoPaths(nil).ValidateVersion(v)
}

func validateVersion(field, v string) error {
	parsed, ok := parseVersion(v)
	if !ok {
		return invalid.Errorf(field, v, "must be an etcd version X.Y.Z (decimal numbers without leading zeros, as etcd's image tags v<X.Y.Z> spell them), e.g. %q", DefaultVersion)
	}
	// parseVersion reads numbers of any length (a live version compares
	// whatever it holds); a version to render must be one etcd can run.
	for _, n := range parsed {
		if len(n) > MaxVersionDigits {
			return invalid.Errorf(field, v, "must have at most %d digits in each number: etcd reads versions into int64s (go-semver), and a larger number is no version etcd can run", MaxVersionDigits)
		}
	}
	return nil
}

// version is a parsed X.Y.Z: each part its decimal digits without leading
// zeros, so that numbers compare by length, then lexically, with no
// overflow whatever their size.
type version [3]string

// parseVersion reads v by VersionPattern (without a regexp: it runs on
// every render).
func parseVersion(v string) (version, bool) {
	var out version
	if len(v) > MaxVersionLength {
		return out, false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		if p == "" || (len(p) > 1 && p[0] == '0') {
			return out, false
		}
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				return out, false
			}
		}
		out[i] = p
	}
	return out, true
}

// compareNumbers compares two decimal numbers without leading zeros.
func compareNumbers(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// isNext reports whether b is a+1, both decimal numbers without leading
// zeros.
func isNext(a, b string) bool {
	// a+1 in decimal: the trailing 9s become 0s, the digit before them
	// goes up by one (or a 1 is prepended).
	i := len(a) - 1
	for i >= 0 && a[i] == '9' {
		i--
	}
	var next string
	if i < 0 {
		next = "1" + strings.Repeat("0", len(a))
	} else {
		next = a[:i] + string(a[i]+1) + strings.Repeat("0", len(a)-1-i)
	}
	return next == b
}

// VersionStep is what a change of a running cluster's etcd version is in
// etcd's terms.
type VersionStep string

const (
	// VersionSame: no change.
	VersionSame VersionStep = "same"
	// VersionPatch: another patch release of the same minor version, up
	// or down. etcd's cluster version is major.minor, so members of the
	// two patch releases run together: a rolling restart.
	VersionPatch VersionStep = "patch"
	// VersionMinorUpgrade: the next minor version, which etcd supports
	// as a rolling upgrade, from a patch release at or above the minimum
	// etcd's guide for that upgrade names, if it names one (see
	// UpgradeMinimums).
	VersionMinorUpgrade VersionStep = "minor upgrade"
	// VersionBelowMinimum: the next minor version, from a patch release
	// below the minimum etcd's upgrade guide requires for that step (3.5
	// below 3.5.32 to 3.6; see UpgradeMinimums): upgrade within the minor
	// version first.
	VersionBelowMinimum VersionStep = "minor upgrade below the minimum patch release"
	// VersionMinorDowngrade: the previous minor version, which etcd
	// supports only through its downgrade procedure (etcdctl downgrade
	// enable first).
	VersionMinorDowngrade VersionStep = "minor downgrade"
	// VersionSkippedMinor: more than one minor version up or down, which
	// etcd does not support.
	VersionSkippedMinor VersionStep = "skipped minor"
	// VersionMajor: another major version, which etcd has no path for.
	VersionMajor VersionStep = "major"
	// VersionUnknown: one side is not an etcd version (see
	// ValidateVersion), so its path cannot be told.
	VersionUnknown VersionStep = "unknown"
)

// Safe reports whether etcd supports the step with members of both
// versions running together, as they do while etcd-operator gives the new
// version to the members it creates (it rolls no running member): a patch
// change or a minor upgrade (from at least the minimum patch release etcd
// names).
func (s VersionStep) Safe() bool {
	return s == VersionSame || s == VersionPatch || s == VersionMinorUpgrade
}

// Where etcd states the rules VersionChange applies.
const (
	// EtcdUpgradePolicy: "etcd only supports the following two upgrade
	// cases: Patch upgrade: Upgrading between patch releases within the
	// same minor version [...] Minor upgrade: Upgrading one minor version
	// at a time (e.g. 3.5 - 3.6). Upgrades that skip a minor version are
	// not supported and will likely fail. Update to the most recent patch
	// version before upgrading to the next minor version."
	EtcdUpgradePolicy = "https://etcd.io/docs/v3.6/upgrades/upgrading-etcd/"
	// EtcdDowngradeGuide: "downgrading from etcd v3.6 to v3.5 can be a
	// zero-downtime, rolling downgrade [...] after enabling the
	// downgrade" (etcdctl downgrade validate/enable <X.Y>). etcd's server
	// admits only the previous minor version as the target
	// (isValidDowngrade: target == {Major, Minor-1}), and a member whose
	// version is below the cluster version, without the downgrade
	// enabled, stops at start ("invalid downgrade; server version is
	// lower than determined cluster version").
	EtcdDowngradeGuide = "https://etcd.io/docs/v3.6/downgrades/downgrade_3_6/"
)

// UpgradeMinimum is the oldest patch release of a minor version that etcd's
// guide for the upgrade to the next minor version allows upgrading from.
type UpgradeMinimum struct {
	// To is the minor version upgraded to, "3.6".
	To string
	// From is the oldest patch release of the previous minor version to
	// upgrade from, "3.5.32".
	From string
	// Why is etcd's reason, in a clause.
	Why string
	// Source is etcd's page that states it.
	Source string
}

// upgradeMinimums are etcd's minimum patch releases, one per upgrade guide
// that names one. The one place they are stated; VersionChange (and so
// the plan's grading of spec.version) applies them.
//
// 3.5 -> 3.6: etcd's "Upgrade etcd from v3.5 to v3.6" guide
// (https://etcd.io/docs/v3.6/upgrades/upgrade_3_6/, "Upgrade checklists",
// "Update 3.5"): every 3.5 member must run 3.5.32 or later before the
// upgrade. The minimum rose with each upgrade blocker etcd fixed in 3.5:
// 3.5.20 (the "too many learner members" error that fails the upgrade,
// etcd-io/etcd#19557; website PR #998), 3.5.24 to 3.5.26 (membership
// data that lets removed "zombie" members rejoin consensus after the
// upgrade and cost the cluster its quorum, etcd-io/etcd#20793; etcd's
// blog of December 2025: no safe path to 3.6 but from 3.5.26), and
// 3.5.32 (etcdutl check v2store reads the WAL too, and
// --v2-deprecation=write-only-skip-check; website PR #1203, merged
// August 2026, which states 3.5.32 in the guide).
//
// 3.6 -> 3.7: etcd's "Upgrade etcd from v3.6 to v3.7" guide
// (https://etcd.io/docs/v3.7/upgrades/upgrade_3_7/, a draft when this was
// written): every 3.6 member must run 3.6.11 or later first, as earlier
// 3.6 patch releases may not take a rolling upgrade to 3.7.
var upgradeMinimums = []UpgradeMinimum{
	{To: "3.6", From: "3.5.32", Source: "https://etcd.io/docs/v3.6/upgrades/upgrade_3_6/",
		Why: "older 3.5 members fail the upgrade (\"too many learner members\") or let removed members rejoin consensus after it and cost the cluster its quorum"},
	{To: "3.7", From: "3.6.11", Source: "https://etcd.io/docs/v3.7/upgrades/upgrade_3_7/",
		Why: "earlier 3.6 patch releases may not take a rolling upgrade to 3.7"},
}

// UpgradeMinimums lists etcd's minimum patch releases for an upgrade of one
// minor version, one per upgrade guide that names one, oldest first.
func UpgradeMinimums() []UpgradeMinimum { return append([]UpgradeMinimum(nil), upgradeMinimums...) }

// upgradeMinimum is the minimum for an upgrade to minor version major.minor
// (t[0], t[1]), if etcd names one.
func upgradeMinimum(t version) (UpgradeMinimum, version, bool) {
	for _, m := range upgradeMinimums {
		if m.To == t[0]+"."+t[1] {
			v, _ := parseVersion(m.From) // the table's: valid (TestUpgradeMinimums)
			return m, v, true
		}
	}
	return UpgradeMinimum{}, version{}, false
}

// VersionChange says what moving a running cluster from etcd version from
// to version to is by etcd's upgrade and downgrade policy (see
// EtcdUpgradePolicy and EtcdDowngradeGuide) and the minimum patch release
// etcd's guide for a minor upgrade requires (UpgradeMinimums), and why, in
// a sentence that names the versions. It is the one statement of that
// policy: the plan
// grades an EtcdCluster's spec.version change by it. etcd-operator gives
// the new version's image to the members it creates from then on (a
// scale-up, a replacement) and rolls no running member, so members of both
// versions run together, and a step etcd does not support as a rolling
// change fails at the first new member.
func VersionChange(from, to string) (VersionStep, string) {
	// A version ValidateVersion refuses (a number past MaxVersionDigits
	// included: no etcd runs it) cannot be graded.
	f, fok := parseVersion(from)
	t, tok := parseVersion(to)
	fok = fok && ValidateVersion(from) == nil
	tok = tok && ValidateVersion(to) == nil
	switch {
	case !fok || !tok:
		bad := from
		if fok {
			bad = to
		}
		// Quoted and bounded: a live object may hold anything here.
		return VersionUnknown, fmt.Sprintf("etcd %s -> %s cannot be graded: %s is not an etcd version X.Y.Z (without leading zeros, each number of at most 18 digits), so etcd's upgrade path cannot be told; etcd supports patch changes and one minor version at a time (%s)",
			invalid.FormatValue(from), invalid.FormatValue(to), invalid.FormatValue(bad), EtcdUpgradePolicy)
	case f == t:
		return VersionSame, fmt.Sprintf("etcd %s is unchanged", from)
	case f[0] != t[0]:
		return VersionMajor, fmt.Sprintf("etcd %s -> %s changes the major version: etcd supports upgrades of one minor version at a time within a major version and downgrades to the previous minor version only (%s); there is no rolling path between major versions", from, to, EtcdUpgradePolicy)
	case f[1] == t[1]:
		return VersionPatch, fmt.Sprintf("etcd %s -> %s is a patch change within %s.%s, which etcd runs side by side (its cluster version is major.minor)", from, to, f[0], f[1])
	case isNext(f[1], t[1]):
		if m, min, ok := upgradeMinimum(t); ok && compareNumbers(f[2], min[2]) < 0 {
			return VersionBelowMinimum, fmt.Sprintf("etcd %s -> %s upgrades one minor version from %s, below %s: etcd's upgrade guide to %s requires every %s.%s member to run %s or later first, as %s (%s); upgrade to %s or later within %s.%s first (a patch change), then to %s",
				from, to, from, m.From, m.To, f[0], f[1], m.From, m.Why, m.Source, m.From, f[0], f[1], to)
		}
		return VersionMinorUpgrade, fmt.Sprintf("etcd %s -> %s upgrades one minor version, which etcd supports as a rolling upgrade; etcd asks that every member run the latest %s.%s patch release first (%s)", from, to, f[0], f[1], EtcdUpgradePolicy)
	case isNext(t[1], f[1]):
		return VersionMinorDowngrade, fmt.Sprintf("etcd %s -> %s downgrades one minor version, which etcd supports only after etcdctl downgrade enable %s.%s has run against the cluster: a %s.%s member started before that stops (\"invalid downgrade; server version is lower than determined cluster version\") (%s)", from, to, t[0], t[1], t[0], t[1], EtcdDowngradeGuide)
	case compareNumbers(t[1], f[1]) > 0:
		return VersionSkippedMinor, fmt.Sprintf("etcd %s -> %s skips a minor version: etcd upgrades one minor version at a time, and \"upgrades that skip a minor version are not supported and will likely fail\" (%s); upgrade through each minor version in turn, each at its latest patch release", from, to, EtcdUpgradePolicy)
	default:
		return VersionSkippedMinor, fmt.Sprintf("etcd %s -> %s downgrades more than one minor version: etcd downgrades to the previous minor version only, one at a time with etcdctl downgrade enable (%s)", from, to, EtcdDowngradeGuide)
	}
}
