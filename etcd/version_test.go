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
	good := []string{"3.6.11", "0.0.0", "3.10.0", "10.20.30", "3.5.100", strings.Repeat("1", 60) + ".0." + strings.Repeat("9", 60)}
	bad := []string{
		"", "3", "3.6", "3.6.11.1", ".3.6", "3.6.", "3..6",
		// Leading zeros, in each part: no image tag spells them.
		"3.6.011", "03.6.11", "3.06.11", "3.6.00", "00.0.0",
		// Suffixes the CRD's pattern refuses.
		"3.6.11-rc.0", "3.6.11+build", "v3.6.11", "3.6.11 ", " 3.6.11", "3.6.11\n",
		// Not ASCII digits.
		"３.6.11", "3.6.1١", "3.6.x", "-3.6.11", "+3.6.11",
		// Past the tag's 128 characters.
		"1.0." + strings.Repeat("1", etcd.MaxVersionLength-3),
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
	require.NoError(t, etcd.ValidateVersion("1.0."+strings.Repeat("1", etcd.MaxVersionLength-4)))
	require.EqualError(t, etcd.ValidateVersion("3.6.011"),
		`Version: invalid value "3.6.011": must be an etcd version X.Y.Z (decimal numbers without leading zeros, as etcd's image tags v<X.Y.Z> spell them), e.g. "3.6.11"`)
}

// TestVersionChange: etcd's policy, one step each, numbers compared as
// numbers (3.10 after 3.9, 19 before 20, any length).
func TestVersionChange(t *testing.T) {
	big := strings.Repeat("9", 40)
	for _, c := range []struct {
		from, to string
		step     etcd.VersionStep
	}{
		{"3.6.11", "3.6.11", etcd.VersionSame},
		{"3.6.10", "3.6.11", etcd.VersionPatch},
		{"3.6.11", "3.6.10", etcd.VersionPatch},
		{"3.6.9", "3.6.100", etcd.VersionPatch},
		{"3.5.21", "3.6.11", etcd.VersionMinorUpgrade},
		{"3.5.0", "3.6.0", etcd.VersionMinorUpgrade},
		{"3.9.4", "3.10.0", etcd.VersionMinorUpgrade},
		{"3.19.4", "3.20.0", etcd.VersionMinorUpgrade},
		{"3.99.4", "3.100.0", etcd.VersionMinorUpgrade},
		{"3." + big + ".0", "3.1" + strings.Repeat("0", 40) + ".0", etcd.VersionMinorUpgrade},
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
	} {
		step, why := etcd.VersionChange(c.from, c.to)
		assert.Equal(t, c.step, step, "%s -> %s: %s", c.from, c.to, why)
		assert.Equal(t, c.step == etcd.VersionSame || c.step == etcd.VersionPatch || c.step == etcd.VersionMinorUpgrade, step.Safe(), "%s -> %s", c.from, c.to)
		if step != etcd.VersionUnknown {
			assert.True(t, strings.HasPrefix(why, "etcd "+c.from+" "), why)
		}
		// etcd's own pages are named wherever the step is not plain.
		if step != etcd.VersionSame && step != etcd.VersionPatch {
			assert.Regexp(t, `\(https://etcd\.io/docs/v3\.6/(upgrades|downgrades)/`, why)
		}
	}
	// A value from a live object is quoted, never printed raw.
	_, why := etcd.VersionChange("\x1b]52;c;aGk=\a", "3.6.11")
	assert.NotContains(t, why, "\x1b")
	assert.Contains(t, why, `"\x1b]52;c;aGk=\a"`)
}
