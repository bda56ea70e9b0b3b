package etcd_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateVersion: X.Y.Z without leading zeros, and what the image tag
// v<version> can hold; the hand-written reader agrees with VersionPattern.
func TestValidateVersion(t *testing.T) {
	pattern := regexp.MustCompile(etcd.VersionPattern)
	good := []string{"3.6.11", "0.0.0", "3.10.0", "10.20.30", "3.5.100", strings.Repeat("9", 18) + "." + strings.Repeat("9", 18) + "." + strings.Repeat("9", 18)}
	bad := []string{
		"", "3", "3.6", "3.6.11.1", ".3.6", "3.6.", "3..6",
		// Leading zeros, in each part: no image tag spells them.
		"3.6.011", "03.6.11", "3.06.11", "3.6.00", "00.0.0",
		// Suffixes the CRD's pattern refuses.
		"3.6.11-rc.0", "3.6.11+build", "v3.6.11", "3.6.11 ", " 3.6.11", "3.6.11\n",
		// Not ASCII digits.
		"３.6.11", "3.6.1١", "3.6.x", "-3.6.11", "+3.6.11",
		// Past MaxVersionLength.
		"1.0." + strings.Repeat("1", etcd.MaxVersionLength-3),
		// A number past MaxVersionDigits, in each part (past int64 or not).
		"1" + strings.Repeat("0", 18) + ".0.0", "3." + strings.Repeat("1", 19) + ".0", "3.6." + strings.Repeat("9", 20),
		strings.Repeat("1", 60) + ".0." + strings.Repeat("9", 60),
	}
	for _, v := range good {
		assert.NoError(t, etcd.ValidateVersion(v), "%q", v)
		assert.True(t, pattern.MatchString(v), "%q", v)
	}
	for _, v := range bad {
		err := etcd.ValidateVersion(v)
		assertField(t, err, "Version")
		if len(v) <= etcd.MaxVersionLength {
			assert.False(t, pattern.MatchString(v), "%q", v)
		}
	}
	require.EqualError(t, etcd.ValidateVersion("99999999999999999999.0.0"),
		`Version: invalid value "99999999999999999999.0.0": must have at most 18 digits in each number: etcd reads versions into int64s (go-semver), and a larger number is no version etcd can run`)
	require.EqualError(t, etcd.ValidateVersion("3.6.011"),
		`Version: invalid value "3.6.011": must be an etcd version X.Y.Z (decimal numbers without leading zeros, as etcd's image tags v<X.Y.Z> spell them), e.g. "3.6.11"`)
}

// TestVersionChange: etcd's policy, one step each, numbers compared as
// numbers (3.10 after 3.9, 19 before 20, up to MaxVersionDigits digits).
func TestVersionChange(t *testing.T) {
	for _, c := range []struct {
		from, to string
		step     etcd.VersionStep
	}{
		{"3.6.11", "3.6.11", etcd.VersionSame},
		{"3.6.10", "3.6.11", etcd.VersionPatch},
		{"3.6.11", "3.6.10", etcd.VersionPatch},
		{"3.6.9", "3.6.100", etcd.VersionPatch},
		{"3.5.32", "3.6.11", etcd.VersionMinorUpgrade},
		{"3.5.33", "3.6.0", etcd.VersionMinorUpgrade},
		{"3.5.100", "3.6.0", etcd.VersionMinorUpgrade},
		// Below the 3.5 patch release etcd's 3.6 guide requires.
		{"3.5.31", "3.6.11", etcd.VersionBelowMinimum},
		{"3.5.26", "3.6.11", etcd.VersionBelowMinimum},
		{"3.5.21", "3.6.11", etcd.VersionBelowMinimum},
		{"3.5.10", "3.6.11", etcd.VersionBelowMinimum},
		{"3.5.0", "3.6.0", etcd.VersionBelowMinimum},
		{"3.5.9", "3.6.11", etcd.VersionBelowMinimum},
		{"3.6.11", "3.7.0", etcd.VersionMinorUpgrade},
		{"3.6.10", "3.7.0", etcd.VersionBelowMinimum},
		{"3.4.0", "3.5.0", etcd.VersionMinorUpgrade}, // the 3.5 guide names none
		{"3.9.4", "3.10.0", etcd.VersionMinorUpgrade},
		{"3.19.4", "3.20.0", etcd.VersionMinorUpgrade},
		{"3.99.4", "3.100.0", etcd.VersionMinorUpgrade},
		{"3.99999999999999998.0", "3.99999999999999999.0", etcd.VersionMinorUpgrade},
		{"3." + strings.Repeat("9", 17) + ".0", "3.1" + strings.Repeat("0", 17) + ".0", etcd.VersionMinorUpgrade},
		{"3.6.11", "3.5.21", etcd.VersionMinorDowngrade},
		{"3.10.0", "3.9.4", etcd.VersionMinorDowngrade},
		{"3.4.30", "3.6.11", etcd.VersionSkippedMinor},
		{"3.9.0", "3.11.0", etcd.VersionSkippedMinor},
		{"3.9.0", "3.90.0", etcd.VersionSkippedMinor},
		{"3.0.0", "3.6.11", etcd.VersionSkippedMinor},
		{"3.6.11", "3.4.30", etcd.VersionSkippedMinor},
		{"3.6.11", "4.0.0", etcd.VersionMajor},
		{"3.6.11", "2.3.8", etcd.VersionMajor},
		{"3.6.11", "4.6.11", etcd.VersionMajor},
		{"3.6.011", "3.6.11", etcd.VersionUnknown},
		{"3.6.11", "v3.6.12", etcd.VersionUnknown},
		{"", "3.6.11", etcd.VersionUnknown},
		// A number no etcd runs (past MaxVersionDigits), live or desired.
		{"3.6." + strings.Repeat("9", 19), "3.6.11", etcd.VersionUnknown},
		{"3.6.11", "3.6." + strings.Repeat("9", 40), etcd.VersionUnknown},
	} {
		step, why := etcd.VersionChange(c.from, c.to)
		assert.Equal(t, c.step, step, "%s -> %s: %s", c.from, c.to, why)
		assert.Equal(t, c.step == etcd.VersionSame || c.step == etcd.VersionPatch || c.step == etcd.VersionMinorUpgrade, step.Safe(), "%s -> %s", c.from, c.to)
		if step == etcd.VersionBelowMinimum {
			assert.Contains(t, why, "requires every ", why)
			assert.Contains(t, why, "or later first", why)
		}
		if step != etcd.VersionUnknown {
			assert.True(t, strings.HasPrefix(why, "etcd "+c.from+" "), why)
		}
		// etcd's own pages are named wherever the step is not plain.
		if step != etcd.VersionSame && step != etcd.VersionPatch {
			assert.Regexp(t, `\(https://etcd\.io/docs/v3\.[0-9]+/(upgrades|downgrades)/`, why)
		}
	}
	// A value from a live object is quoted, never printed raw.
	_, why := etcd.VersionChange("\x1b]52;c;aGk=\a", "3.6.11")
	assert.NotContains(t, why, "\x1b")
	assert.Contains(t, why, `"\x1b]52;c;aGk=\a"`)
}

// TestUpgradeMinimums: each minimum is a valid version of the minor
// version before the one it is for, and cites etcd's guide of that
// upgrade; VersionChange applies each at its boundary.
func TestUpgradeMinimums(t *testing.T) {
	ms := etcd.UpgradeMinimums()
	require.NotEmpty(t, ms)
	require.Equal(t, "3.5.32", ms[0].From, "etcd's v3.5 -> v3.6 guide")
	for _, m := range ms {
		require.NoError(t, etcd.ValidateVersion(m.From), m.From)
		parts := strings.Split(m.From, ".")
		to := strings.Split(m.To, ".")
		require.Len(t, to, 2, m.To)
		require.Equal(t, parts[0], to[0], m.To)
		step, _ := etcd.VersionChange(parts[0]+"."+parts[1]+".0", m.To+".0")
		require.NotEqual(t, etcd.VersionSkippedMinor, step, "%s is the minor version before %s", m.From, m.To)
		assert.Regexp(t, `^https://etcd\.io/docs/v`+regexp.QuoteMeta(m.To)+`/upgrades/upgrade_`+strings.ReplaceAll(m.To, ".", "_")+`/$`, m.Source)
		assert.NotEmpty(t, m.Why)
		step, why := etcd.VersionChange(m.From, m.To+".0")
		assert.Equal(t, etcd.VersionMinorUpgrade, step, why)
		n := len(parts[2]) // the patch before the minimum, if any
		if parts[2] != "0" && n > 0 {
			prev := parts[0] + "." + parts[1] + "." + decrement(parts[2])
			step, why = etcd.VersionChange(prev, m.To+".0")
			assert.Equal(t, etcd.VersionBelowMinimum, step, why)
			assert.Contains(t, why, m.Source)
			assert.Contains(t, why, "upgrade to "+m.From+" or later within "+parts[0]+"."+parts[1]+" first")
		}
	}
	// The list is a copy.
	ms[0].From = "0.0.0"
	require.Equal(t, "3.5.32", etcd.UpgradeMinimums()[0].From)
}

// decrement is n-1 of a decimal number above 0 without leading zeros.
func decrement(n string) string {
	b := []byte(n)
	i := len(b) - 1
	for b[i] == '0' {
		b[i] = '9'
		i--
	}
	b[i]--
	s := strings.TrimLeft(string(b), "0")
	if s == "" {
		return "0"
	}
	return s
}
