package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// forged is what hostile input appends after a line break: were the break
// printed raw, a line of its own would start with it.
const forged = "FORGED: rendered 24 objects, all checks passed"

// hostile is text of every class a terminal or a log reader could take for
// something else than text: an OSC 52 clipboard write, a screen clear,
// BEL, a forged line, carriage return, tab, DEL, C1 controls (NEL, CSI),
// the line and paragraph separators, bidirectional controls, a
// zero-width character and bytes that are not UTF-8.
const hostile = "a\x1b]52;c;aGVsbG8=\x07\x1b[2J\r\t\x7f\u0085\u009b\u2028\u2029\u202e\u2066\u200b\xff\xfe\n" + forged

// terminalUnsafe returns the first character of line (one line, without
// its line break) that is a C0 control, DEL, a C1 control, a line or
// paragraph separator, a bidirectional control or a byte that is not UTF-8.
func terminalUnsafe(line string) (string, bool) {
	for i, r := range line {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(line[i:], "\uFFFD"),
			r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0x200e, r == 0x200f, r == 0x061c:
			return fmt.Sprintf("%q at byte %d", string(r), i), true
		}
	}
	return "", false
}

// checkPrintable fails when a line of out (what the command printed on
// stderr, or its messages on stdout) holds a character terminalUnsafe
// finds, or starts with the forged line.
func checkPrintable(t testing.TB, what, out string, args []string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if bad, found := terminalUnsafe(line); found {
			t.Fatalf("%q: %s: %s in %q", args, what, bad, line)
		}
		if strings.HasPrefix(strings.TrimPrefix(line, "etcdshapes: "), forged[:6]) {
			t.Fatalf("%q: %s: a line of its own from input: %q", args, what, line)
		}
	}
}

// hostileLive is a live List of the cluster-demo stack whose objects carry
// h in every place a plan prints: a label key and value, a field the
// schema does not know, the manager of a changed field, a DataStore
// endpoint and a storage class.
func hostileLive(t testing.TB, s golden.Scenario, h string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "golden", "testdata", s.Name+".yaml"))
	require.NoError(t, err)
	var items []any
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var u unstructured.Unstructured
		require.NoError(t, yaml.Unmarshal([]byte(strings.TrimPrefix(doc, "---\n")), &u.Object))
		if u.Object == nil {
			continue
		}
		u.SetLabels(map[string]string{"k" + h: "v" + h})
		switch u.GetKind() {
		case "EtcdCluster":
			u.Object["spec"].(map[string]any)["replicas"] = int64(5)
			u.Object["spec"].(map[string]any)["x"+h] = h
			u.SetManagedFields(nil)
			u.Object["metadata"].(map[string]any)["managedFields"] = []any{map[string]any{
				"manager": "m" + h, "operation": "Apply", "apiVersion": u.GetAPIVersion(), "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}},
			}}
		case "DataStore":
			u.Object["spec"].(map[string]any)["endpoints"] = []any{"e" + h + ":2379"}
		}
		items = append(items, u.Object)
	}
	ds, err := goldentest.DataStore(s)
	require.NoError(t, err)
	items = append(items, map[string]any{
		"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha1", "kind": "KamajiControlPlane",
		"metadata": map[string]any{"name": s.Release, "namespace": s.Namespace},
		"spec":     map[string]any{"dataStoreName": ds},
	})
	out, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	require.NoError(t, err)
	return out
}

// yamlQuote is s as a YAML double-quoted scalar that reads back as s,
// every character beyond printable ASCII escaped: YAML refuses raw C1
// controls and DEL, and folds a raw NEL. (Bytes that are not UTF-8 read
// back as U+FFFD: a values file is UTF-8.)
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r >= ' ' && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hostileCommandLines are command lines of every command that prints,
// each with h in one place: a values key and value (file and --set
// family), a path (-f, --live, --set-file, --output-dir, --out), every
// other flag's value, an unknown flag, command and help topic, a
// --show-only pattern, and live objects' names, fields and managers.
func hostileCommandLines(t testing.TB, h string) [][]string {
	t.Helper()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	quoted := yamlQuote(h)
	key := file("key.yaml", quoted+": 1\n")
	value := file("value.yaml", "version: "+quoted+"\n")
	nested := file("nested.yaml", "resources:\n  "+quoted+": "+quoted+"\n")
	rawYAML := file("raw.yaml", "size: "+h+"\n") // raw bytes, for the parser's message
	content := file("content", h)
	s := goldentest.Scenario(t, "cluster-demo")
	live := file("live.json", string(hostileLive(t, s, h)))
	rawLive := file("raw-live.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: "+h+"}\n")
	missing := filepath.Join(dir, "missing"+h)
	b := h[min(1, len(h)):min(2, len(h))] // one byte of h (ESC in hostile)
	near := file("near.yaml", yamlQuote("etcd"+b)+": {}\n_cluster: {"+yamlQuote("cpu-allocation-rati"+b)+": 1}\n")
	etcd := []string{"render", "etcd", "-n", "tenant-root"}
	cluster := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	planCluster := []string{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--chart-version", "0.0.0"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	return [][]string{
		with(etcd, "-f", key),
		with(etcd, "-f", value),
		with(etcd, "-f", nested),
		with(etcd, "-f", rawYAML),
		with(etcd, "-f", missing),
		with(etcd, "--set", h+"=1"),
		with(etcd, "--set", "version="+h),
		with(etcd, "--set-string", "resources."+h+"=1"),
		with(etcd, "--set-json", "affinity="+h),
		with(etcd, "--set-json", "affinity="+quoted),
		with(etcd, "--set-file", "version="+content),
		with(etcd, "--set-file", "version="+missing),
		with(etcd, "--set-literal", h+"="+h),
		{"render", "etcd", "-n", h},
		with(etcd, "--release", h),
		with(etcd, "--chart-version", h),
		with(etcd, "--api-versions", h),
		with(etcd, "--show-only", h),
		with(etcd, "--show-only", "EtcdCluster/"+h),
		with(etcd, "-o", h),
		with(etcd, "--output-dir", filepath.Join(dir, "out"+h)),
		with(etcd, "--"+h),
		{"render", "cluster", "-n", "tenant-demo", "--release", h},
		{"render", "cluster", h, "-n", "tenant-demo"},
		{"render", "cluster", "kubernetes-demo", h, "-n", "tenant-demo"},
		{"render", "cluster", h, "-n", "tenant-demo", "--release", "kubernetes-demo"},
		with(cluster, "-f", near), // ignored keys warned about, which resemble read ones but for a byte of h
		{"render", "snapshot", "cluster", h, "-n", "tenant-demo", "--name", "now", "--pvc", "backups"},
		{"render", "check", "cluster", "kubernetes-demo", h, "-n", "tenant-demo"},
		{"plan", "cluster", h, "-n", "tenant-demo", "--live", live},
		with(cluster, "--live-datastore", h),
		with(cluster, "--live-storage-class", h),
		{"render", h},
		{"help", h},
		{h},
		{"render", "snapshot", "etcd", "-n", "tenant-root", "--name", h, "--pvc", h},
		{"render", "snapshot", "etcd", "-n", "tenant-root", "--schedule", h, "--s3-endpoint", h, "--s3-bucket", h, "--s3-key", h, "--s3-region", h, "--s3-credentials-secret", h},
		{"render", "snapshot", "etcd", "-n", "tenant-root", "--name", "s", "--pvc", "backups", "--pvc-subpath", h},
		{"render", "check", "etcd", "-n", "tenant-root", "--etcd-version", h, "--size", h, "--load", h, "--image", h},
		{"gen", "chart", "--caller", h, "--out", filepath.Join(dir, "chart")},
		{"gen", "chart", "--caller", "etcd", "--chart-version", h, "--out", filepath.Join(dir, "chart")},
		{"gen", "chart", "--caller", "etcd", "--out", filepath.Join(dir, "chart"+h, "x")},
		with(planCluster, "--live", live),
		with(planCluster, "--live", live, "-o", "json"),
		with(planCluster, "--live", rawLive),
		with(planCluster, "--live", missing),
		with(planCluster, "--live", live, "--output", h),
		with(planCluster, "--live", live, "--field-manager", h),
		{"version", "-o", h},
		{"completion", h},
	}
}

// TestNothingRawOnTheTerminal: whatever a key, a value, a path, a flag's
// value, a pattern or a live object holds, every command prints it
// escaped: no control character, C1 or bidirectional control, no byte
// that is not UTF-8, no line of its own on stderr, nor in the messages
// and the plan on stdout.
func TestNothingRawOnTheTerminal(t *testing.T) {
	wrote := false
	for _, args := range hostileCommandLines(t, hostile) {
		code, stdout, stderr := cli(t, "", args...)
		require.NotEmpty(t, stderr+stdout, "%q: exit %d and nothing said", args, code)
		checkPrintable(t, "stderr", stderr, args)
		if args[0] == "plan" || strings.HasPrefix(stdout, "wrote ") {
			checkPrintable(t, "stdout", stdout, args)
			wrote = wrote || strings.HasPrefix(stdout, "wrote ")
		}
	}
	require.True(t, wrote, "--output-dir into a directory named with the hostile text")
	// The plan quoted the live objects' fields, escaped.
	s := goldentest.Scenario(t, "cluster-demo")
	live := writeTemp(t, hostileLive(t, s, hostile))
	code, stdout, _ := cli(t, "", "plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--chart-version", "0.0.0", "--live", live)
	require.Equal(t, 3, code, stdout)
	require.Contains(t, stdout, `conflict with ma\x1b]52;c;aGVsbG8=\a\x1b[2J\r\t\x7f\u0085\u009b\u2028\u2029\u202e\u2066\u200b`+"\uFFFD\uFFFD"+`\n`+forged) // JSON read the bytes that are not UTF-8 as U+FFFD
}

// FuzzMessages: any text in any place of hostileCommandLines (a values
// key or value, a path, a flag's value, a live object's field) reaches
// stderr, and the plan on stdout, escaped. Seeds: the classes of hostile.
//
//	go test ./cmd/etcdshapes -run '^$' -fuzz '^FuzzMessages$' -fuzztime 500x
func FuzzMessages(f *testing.F) {
	for i, s := range []string{hostile, "\n", "\x1b]52;c;eA==\x07", "\u202e", "\x85", "\xc2\x9b", "\xff", "%s%v%q", "ok"} {
		f.Add(uint8(i*7), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, v string) {
		if strings.Contains(v, forged[:6]) {
			t.Skip() // the forged-line check needs the marker once
		}
		lines := hostileCommandLines(t, v+"\n"+forged+v)
		args := lines[int(which)%len(lines)]
		_, stdout, stderr := cli(t, "", args...)
		checkPrintable(t, "stderr", stderr, args)
		if args[0] == "plan" || strings.HasPrefix(stdout, "wrote ") {
			checkPrintable(t, "stdout", stdout, args)
		}
	})
}

// TestBytesNotUTF8Shown: a byte that is not UTF-8, in a --set family
// argument, a values file, a live file (YAML or JSON) or a file name,
// reaches the message as \xNN, never as U+FFFD (which Helm's parser, a
// JSON decoder or a conversion to valid UTF-8 would make of it): the
// message shows what the input holds.
func TestBytesNotUTF8Shown(t *testing.T) {
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	for _, c := range []struct {
		args []string
		want string // a substring of stderr
	}{
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "version=3.6.\xff"}, `--set: invalid value "version=3.6.\xff": must be UTF-8 text`},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "a\xfe=1"}, `--set: invalid value "a\xfe=1": must be UTF-8 text`},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-json", "affinity={\"a\xff\":1}"}, `--set-json: invalid value "affinity={\"a\xff\":1}": must be UTF-8 text`},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "storageClass=\xc3"}, `--set-string: invalid value "storageClass=\xc3": must be UTF-8 text`},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-file", "storageClass=" + file("sc.txt", "local\xff")}, `values.storageClass: invalid value "local\xff": `},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("v.yaml", "a\xffb: 1\n")}, `values[0]: invalid value "a\xffb: 1": must be a YAML map of values`},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("l.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: a\xff}\n")}, `live[0]: invalid value "apiVersion: v1 …": must be YAML`},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("l.json", `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a`+"\xff"+`"}}`)}, `live[0]: invalid value "\xff\"}}": must be UTF-8`},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", filepath.Join(dir, "missing-\xff.yaml")}, `missing-\xff.yaml`},
	} {
		code, stdout, stderr := cli(t, "", c.args...)
		require.NotEqual(t, 0, code, "%q", c.args)
		require.Empty(t, stdout)
		require.Contains(t, stderr, c.want, "%q", c.args)
		require.NotContains(t, stderr, "\uFFFD", "%q", c.args)
		checkPrintable(t, "stderr", stderr, c.args)
	}
}
