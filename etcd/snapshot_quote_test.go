package etcd_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotLocationQuotesAsWritten: every refusal of a snapshot
// destination or restore source quotes the field's value exactly as the
// caller wrote it: a key prefix or a sub-path with its trailing "/", an
// endpoint with its own case and escapes (a userinfo, the one part left
// out, reads REDACTED), a bucket, region, Secret or claim byte for byte.
// Each field is tried with a value that breaks each of its rules that a
// spelling could respell.
func TestSnapshotLocationQuotesAsWritten(t *testing.T) {
	s3 := func(edit func(*v1alpha2.S3Location)) v1alpha2.SnapshotLocation {
		d := s3Dest("")
		edit(d.S3)
		return d
	}
	pvc := func(edit func(*v1alpha2.PVCLocation)) v1alpha2.SnapshotLocation {
		d := pvcDest("")
		edit(d.PVC)
		return d
	}
	key := func(k string) func(*v1alpha2.S3Location) { return func(s *v1alpha2.S3Location) { s.Key = k } }
	endpoint := func(e string) func(*v1alpha2.S3Location) { return func(s *v1alpha2.S3Location) { s.Endpoint = e } }
	subPath := func(p string) func(*v1alpha2.PVCLocation) { return func(l *v1alpha2.PVCLocation) { l.SubPath = p } }
	type tc struct {
		dest  v1alpha2.SnapshotLocation
		field string
		// quoted is what the refusal quotes: the value as written.
		quoted string
	}
	var cases []tc
	// Prefixes and directories, for a destination: each rule of the
	// segments, with the trailing "/" the user wrote, and without.
	for _, p := range []string{"a//b/", "a/./b/", "a/../b/", "../", "./", "a\x01/", "a\u200b/", "a\xff/", "a/\u2028/", "etcd//", "etcd/./"} {
		cases = append(cases, tc{s3(key(p)), "d.s3.key", p})
	}
	for _, p := range []string{"a//b/", "a/./b/", "a/../b", "../", "./", "a\x01/", "a\u200b", "a\xff/", "a/" + strings.Repeat("s", 256) + "/", "etcd//"} {
		cases = append(cases, tc{pvc(subPath(p)), "d.pvc.subPath", p})
	}
	for _, e := range []string{
		"HTTPS://s3.example.com:99999/", "https://:443/", "ftp://s3.example.com/Path/", "https://s3.example.com/?x=1",
		"https://bad_host.example.com/%7e/", "https://s3.example.com /", "https://s3.example.com#frag/",
	} {
		cases = append(cases, tc{s3(endpoint(e)), "d.s3.endpoint", e})
	}
	// A userinfo is the one part not echoed; the rest is as written.
	cases = append(cases,
		tc{s3(endpoint("HTTPS://key:secret@S3.Example.com/%7e/Prefix/")), "d.s3.endpoint", "HTTPS://REDACTED@S3.Example.com/%7e/Prefix/"},
		tc{s3(endpoint("http://a@b:pw@minio:9000")), "d.s3.endpoint", "http://REDACTED@minio:9000"},
	)
	cases = append(cases,
		tc{s3(func(s *v1alpha2.S3Location) { s.Bucket = "Etcd-Backups/" }), "d.s3.bucket", "Etcd-Backups/"},
		tc{s3(func(s *v1alpha2.S3Location) { s.Bucket = " etcd-backups " }), "d.s3.bucket", " etcd-backups "},
		tc{s3(func(s *v1alpha2.S3Location) { s.Region = "us-east-1/" }), "d.s3.region", "us-east-1/"},
		tc{s3(func(s *v1alpha2.S3Location) { s.CredentialsSecretRef.Name = "S3-Creds/" }), "d.s3.credentialsSecretRef.name", "S3-Creds/"},
		tc{pvc(func(l *v1alpha2.PVCLocation) { l.ClaimName = "Backups/" }), "d.pvc.claimName", "Backups/"},
	)
	for _, c := range cases {
		err := etcd.ValidateSnapshotDestination("d", c.dest)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%q: %v", c.quoted, err)
		assert.Equal(t, c.field, ne.Field, "%v", err)
		assert.Equal(t, c.quoted, ne.Value, "%v", err)
		assert.NotContains(t, err.Error(), "secret", "%v", err)
	}
	// Restore sources: exact keys and sub-paths, quoted whole.
	for _, p := range []string{"a//b.db", "a/../b.db", "./b.db", "a\x01/b.db", "etcd/"} {
		for _, c := range []tc{{s3Dest(p), "s.s3.key", p}, {pvcDest(p), "s.pvc.subPath", p}} {
			err := etcd.ValidateRestoreSource("s", c.dest)
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "%q: %v", p, err)
			assert.Equal(t, c.field, ne.Field, "%v", err)
			assert.Equal(t, c.quoted, ne.Value, "%v", err)
		}
	}
}
