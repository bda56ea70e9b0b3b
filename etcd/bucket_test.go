package etcd_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
)

// TestS3BucketNamingRules holds every rule of S3's general purpose bucket
// names (etcd/bucket.go) at its edge: the name just inside it is
// accepted, the one just outside refused with the rule named, for a
// snapshot destination and a restore source alike.
func TestS3BucketNamingRules(t *testing.T) {
	for _, tc := range []struct {
		bucket string
		rule   string // "" when accepted
	}{
		// Length 3-63.
		{"abc", ""},
		{"ab", "3-63 lowercase letters"},
		{strings.Repeat("a", 63), ""},
		{strings.Repeat("a", 64), "3-63 lowercase letters"},
		{"", "3-63 lowercase letters"},
		// Lowercase letters, digits, dots and hyphens only.
		{"a0.-9z", ""},
		{"Abc", "3-63 lowercase letters"},
		{"ab_c", "3-63 lowercase letters"},
		{"ab c", "3-63 lowercase letters"},
		{"abç", "3-63 lowercase letters"},
		// Beginning and ending with a letter or digit.
		{"0bc9", ""},
		{"-abc", "3-63 lowercase letters"},
		{"abc-", "3-63 lowercase letters"},
		{".abc", "3-63 lowercase letters"},
		{"abc.", "3-63 lowercase letters"},
		// No two adjacent dots.
		{"a.b.c", ""},
		{"a..b", "no two adjacent dots"},
		// Not formatted as an IP address.
		{"192.168.1", ""},
		{"192.168.1.1a", ""},
		{"192.168.1.1.1", ""},
		{"192.168.1.1", "not formatted as an IP address"},
		{"999.1.1.1", "not formatted as an IP address"},
		// Reserved prefixes.
		{"xn-abc", ""},
		{"axn--abc", ""},
		{"xn--abc", "not beginning with xn--"},
		{"sthreeabc", ""},
		{"sthree-abc", "not beginning with sthree-"},
		{"sthree-configurator-a", "not beginning with sthree-"},
		{"amzn-s3-demo", ""},
		{"amzn-s3-demo-bucket", "not beginning with amzn-s3-demo-"},
		// Reserved suffixes.
		{"abcs3alias", ""},
		{"abc-s3alias", "not ending with -s3alias"},
		{"abc-ol-s3", ""},
		{"abc--ol-s3", "not ending with --ol-s3"},
		{"abcmrap", ""},
		{"abc.mrap", "not ending with .mrap"},
		{"abc-x-s3", ""},
		{"abc--x-s3", "not ending with --x-s3"},
		{"abc-table-s3", ""},
		{"abc--table-s3", "not ending with --table-s3"},
		// An account regional namespace's bucket is a bucket.
		{"etcd-backups-111122223333-us-west-2-an", ""},
	} {
		t.Run(tc.bucket, func(t *testing.T) {
			for _, check := range []struct {
				field string
				err   func(field, bucket string) error
			}{
				{"destination", func(field, bucket string) error {
					d := s3Dest("")
					d.S3.Bucket = bucket
					return etcd.ValidateSnapshotDestination(field, d)
				}},
				{"source", func(field, bucket string) error {
					d := s3Dest("etcd/before-upgrade.db")
					d.S3.Bucket = bucket
					return etcd.ValidateRestoreSource(field, d)
				}},
			} {
				err := check.err(check.field, tc.bucket)
				if tc.rule == "" {
					if err != nil {
						t.Fatalf("%s: %q refused: %v", check.field, tc.bucket, err)
					}
					continue
				}
				all := invalid.All(err)
				if len(all) != 1 || all[0].Field != check.field+".s3.bucket" || !strings.Contains(all[0].Rule, "must be an S3 bucket name: "+tc.rule) {
					t.Fatalf("%s: %q: got %v, want one refusal of %s.s3.bucket naming the rule %q", check.field, tc.bucket, err, check.field, tc.rule)
				}
			}
		})
	}
}
