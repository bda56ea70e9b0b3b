package etcd_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// hiddenClass is one of each kind of character a snapshot's free text
// must not hold: every C0 control, DEL, every C1 control (NEL among them),
// U+2028, U+2029, the BOM, a bidirectional override, a zero width
// joiner, noncharacters and invalid UTF-8 bytes.
func hiddenClass() []string {
	var out []string
	for r := rune(0); r < 0x20; r++ {
		out = append(out, string(r))
	}
	for r := rune(0x7F); r <= 0x9F; r++ {
		out = append(out, string(r))
	}
	out = append(out, "\u2028", "\u2029", "\ufeff", "\u202e", "\u200d", "\ufffe", "\uffff", "\ufdd0", "\U0001fffe", "\xff", "\xc3", "\xed\xa0\x80")
	return out
}

// TestSnapshotTextClass: each character of hiddenClass in each free-text
// field of a snapshot destination and restore source (S3 bucket, key,
// endpoint, region, credentials Secret; PVC claim and sub-path) and in the
// snapshot's name is refused with that field named, through Snapshot,
// ScheduledSnapshots, SnapshotFile and ValidateRestoreSource; nothing is
// rewritten. What is accepted prints as YAML that reads back byte for byte.
func TestSnapshotTextClass(t *testing.T) {
	n := etcdNames(t)
	fields := []struct {
		name  string
		field string
		set   func(d *v1alpha2.SnapshotLocation, c string)
		pvc   bool
	}{
		{"bucket", "s3.bucket", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.Bucket = "etcd" + c + "x" }, false},
		{"key", "s3.key", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.Key += "etcd" + c + "x/" }, false},
		{"endpoint host", "s3.endpoint", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.Endpoint = "https://s3" + c + ".example.com" }, false},
		{"endpoint path", "s3.endpoint", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.Endpoint = "https://s3.example.com/x" + c }, false},
		{"region", "s3.region", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.Region = "us" + c + "east" }, false},
		{"secret", "s3.credentialsSecretRef.name", func(d *v1alpha2.SnapshotLocation, c string) { d.S3.CredentialsSecretRef.Name = "s3" + c + "x" }, false},
		{"claim", "pvc.claimName", func(d *v1alpha2.SnapshotLocation, c string) { d.PVC.ClaimName = "etcd" + c + "x" }, true},
		{"subPath", "pvc.subPath", func(d *v1alpha2.SnapshotLocation, c string) { d.PVC.SubPath = "etcd" + c + "x" }, true},
	}
	for _, c := range hiddenClass() {
		for _, f := range fields {
			dest := func(exact bool) v1alpha2.SnapshotLocation {
				d := s3Dest("tenant-root/")
				if f.pvc {
					d = pvcDest("")
				}
				if exact && !f.pvc {
					d.S3.Key = ""
				}
				f.set(&d, c)
				if exact && f.name != "key" && f.name != "subPath" {
					if f.pvc {
						d.PVC.SubPath = "etcd/a.db"
					} else {
						d.S3.Key = "etcd/a.db"
					}
				}
				if exact && f.name == "key" {
					d.S3.Key = strings.TrimSuffix(d.S3.Key, "/") + ".db"
				}
				return d
			}
			what := fmt.Sprintf("%s with %q", f.name, c)
			_, err := etcd.Snapshot(n, "x", dest(false))
			assertField(t, err, "destination."+f.field)
			_, err = etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Destination: dest(false)})
			assertField(t, err, "destination."+f.field)
			_, err = etcd.SnapshotFile(dest(false), "x")
			assertField(t, err, "destination."+f.field)
			assertField(t, etcd.ValidateRestoreSource("source", dest(true)), "source."+f.field)
			// The value is the one given (cut at a "/" it ends in).
			var bad *invalid.Error
			require.ErrorAs(t, etcd.ValidateSnapshotDestination("d", dest(false)), &bad, what)
			assert.Contains(t, bad.Value, c, what)
		}
		_, err := etcd.Snapshot(n, "x"+c+"y", s3Dest(""))
		assertField(t, err, "name")
	}
	// Printable text beyond ASCII is kept byte for byte where the field
	// takes it: the key and the sub-path.
	for _, p := range []string{"é/", "日本/", "emoji-😀/", "a b/", "tab-less/", "\u00a0nbsp/"} {
		s, err := etcd.Snapshot(n, "x", s3Dest(p))
		require.NoError(t, err, p)
		out, err := etcdshapes.MarshalObject(s)
		require.NoError(t, err, p)
		var back v1alpha2.EtcdSnapshot
		require.NoError(t, yaml.Unmarshal(out, &back))
		require.Equal(t, p, back.Spec.Destination.S3.Key)
		src, err := etcd.SnapshotFile(s3Dest(p), "x")
		require.NoError(t, err)
		require.Equal(t, p+"x.db", src.S3.Key)
	}
}

// TestSnapshotEndpoint: an S3 endpoint the snapshot agent's AWS SDK can
// use (an http or https URL without a query, a path kept as a prefix), at
// a host and a port in 1-65535; what can never connect is refused.
func TestSnapshotEndpoint(t *testing.T) {
	for _, e := range []string{
		"https://s3.amazonaws.com", "http://minio.tenant-root.svc:9000", "https://minio.tenant-root.svc.cluster.local.:9000",
		"https://10.0.0.1:1", "https://10.0.0.1:65535", "http://[fd00::1]:9000", "https://[::1]", "https://S3.Example.COM",
		"HTTPS://s3.example.com", "https://s3.example.com/", "https://gw.example.com/s3/prefix", "https://s3.example.com:443/",
		"https://xn--bcher-kva.example",
	} {
		assert.NoError(t, etcd.ValidateSnapshotDestination("d", endpointDest(e)), e)
	}
	for e, rule := range map[string]string{
		"":                              "must not be empty",
		"https://:443":                  "must name a host",
		"https://":                      "must name a host",
		"https:///etcd":                 "must name a host",
		"https:s3.example.com":          "must name a host",
		"https://[]:443":                "http or https URL",
		"https://s3.example.com:99999":  "port from 1 to 65535",
		"https://s3.example.com:0":      "port from 1 to 65535",
		"https://s3.example.com:65536":  "port from 1 to 65535",
		"https://s3.example.com:":       "port from 1 to 65535",
		"https://s3.example.com:https":  "http or https URL",
		"https://s3.example.com:-1":     "http or https URL",
		"ftp://s3.example.com":          "http or https URL",
		"s3://etcd-backups":             "http or https URL",
		"s3.example.com":                "http or https URL",
		"minio:9000":                    "http or https URL",
		"//s3.example.com":              "http or https URL",
		"https://key:secret@s3.example": "must not carry credentials",
		"https://user@s3.example.com":   "must not carry credentials",
		"https://s3.example.com/?x=1":   "must not have a query or fragment",
		"https://s3.example.com?":       "must not have a query or fragment",
		"https://s3.example.com#":       "must not have a query or fragment",
		"https://s3_host.example.com":   "DNS name",
		"https://-s3.example.com":       "DNS name",
		"https://s3..example.com":       "DNS name",
		"https://bücher.example":        "printable ASCII",
		"https://s3.example.com /":      "printable ASCII",
		"https://[fe80::1%25eth0]:9000": "DNS name",
		"https://" + strings.Repeat("a", 64) + ".example.com": "DNS name",
	} {
		err := etcd.ValidateSnapshotDestination("d", endpointDest(e))
		var bad *invalid.Error
		if assert.ErrorAs(t, err, &bad, e) {
			assert.Equal(t, "d.s3.endpoint", bad.Field, e)
			assert.Contains(t, bad.Rule, rule, e)
		}
	}
}

func endpointDest(e string) v1alpha2.SnapshotLocation {
	d := s3Dest("")
	d.S3.Endpoint = e
	return d
}
