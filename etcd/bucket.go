package etcd

import (
	"regexp"
	"strings"
)

// The rules of an S3 general purpose bucket's name, as AWS states them
// (Amazon S3 User Guide, "General purpose bucket naming rules",
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html):
// S3 refuses to create a bucket that breaks one, so a destination naming
// one can never hold a snapshot. MinIO and Ceph RGW follow the same
// character rules.
var (
	// s3BucketChars: 3-63 lowercase letters, digits, dots and hyphens,
	// beginning and ending with a letter or digit.
	s3BucketChars = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	// s3BucketIP is a name formatted as an IP address (192.168.5.4): four
	// groups of digits joined by dots, as MinIO's check reads it, so that
	// "999.1.1.1" is refused too (S3 says "formatted as", not "is").
	s3BucketIP = regexp.MustCompile(`^[0-9]+(\.[0-9]+){3}$`)
	// s3BucketPrefixes are reserved: xn-- (punycode), sthree- (and so
	// sthree-configurator), amzn-s3-demo- (AWS's examples).
	s3BucketPrefixes = []string{"xn--", "sthree-", "amzn-s3-demo-"}
	// s3BucketSuffixes are reserved for other kinds of names: access
	// point aliases (-s3alias), Object Lambda access point aliases
	// (--ol-s3), Multi-Region Access Points (.mrap), directory buckets
	// (--x-s3) and table buckets (--table-s3). The -an suffix of buckets
	// in an account regional namespace is not among them: such a bucket
	// exists and may hold snapshots.
	s3BucketSuffixes = []string{"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}
)

// s3BucketRule is the naming rule bucket breaks, "" when it breaks none;
// each rule is checked only when the ones before it hold.
func s3BucketRule(bucket string) string {
	switch {
	case !s3BucketChars.MatchString(bucket):
		return "3-63 lowercase letters, digits, dots and hyphens, beginning and ending with a letter or digit"
	case strings.Contains(bucket, ".."):
		return "no two adjacent dots"
	case s3BucketIP.MatchString(bucket):
		return "not formatted as an IP address"
	}
	for _, p := range s3BucketPrefixes {
		if strings.HasPrefix(bucket, p) {
			return "not beginning with " + p + ", which S3 reserves"
		}
	}
	for _, s := range s3BucketSuffixes {
		if strings.HasSuffix(bucket, s) {
			return "not ending with " + s + ", which S3 reserves for another kind of name"
		}
	}
	return ""
}
