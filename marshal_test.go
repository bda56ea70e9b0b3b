package etcdshapes_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"

	"sigs.k8s.io/yaml"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	cmmeta "github.com/cert-manager/cert-manager/pkg/apis/meta/v1"
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestMarshalMatchesOldPath proves the fast printer on every object of
// every golden scenario: it must print each one itself (no fallback) and
// byte for byte as the old printer does.
func TestMarshalMatchesOldPath(t *testing.T) {
	for _, s := range golden.All() {
		objs, err := s.Render()
		require.NoError(t, err, s.Name)
		var want bytes.Buffer
		for _, o := range objs {
			slow, err := etcdshapes.MarshalSlowForTest(o)
			require.NoError(t, err)
			fast, err := etcdshapes.MarshalFastForTest(o)
			require.NoError(t, err, "%s: %T %s fell back to the old printer", s.Name, o, o.GetName())
			require.Equal(t, string(slow), string(fast), "%s: %T %s", s.Name, o, o.GetName())
			want.WriteString("---\n")
			want.Write(slow)
		}
		got, err := etcdshapes.Marshal(objs)
		require.NoError(t, err)
		require.Equal(t, want.String(), string(got), s.Name)
	}
}

// TestMarshalErrorsUnchanged: errors come from the old printer.
func TestMarshalErrorsUnchanged(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x"}}
	_, errSlow := etcdshapes.MarshalSlowForTest(cm)
	_, err := etcdshapes.MarshalObject(cm)
	require.Error(t, err)
	require.Equal(t, errSlow.Error(), err.Error())

	// A string YAML cannot carry is refused with its field named, where
	// the old printer named none ("yaml: control characters are not
	// allowed").
	cm = configMap("ns", "x", map[string]string{"k": "a\x7fb"})
	_, errSlow = etcdshapes.MarshalSlowForTest(cm)
	require.EqualError(t, errSlow, "yaml: control characters are not allowed")
	_, err = etcdshapes.MarshalObject(cm)
	var bad *invalid.Error
	require.ErrorAs(t, err, &bad)
	require.Equal(t, "data.k", bad.Field)
	require.Equal(t, "a\x7fb", bad.Value)
	require.Contains(t, bad.Rule, `holds U+007F, which YAML cannot carry byte for byte`)
	require.Contains(t, bad.Rule, `ConfigMap "ns/x"`)
}

func configMap(ns, name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: data, Annotations: data},
		Data:       data,
	}
}

// compare checks that Marshal and MarshalObject print o as the old path
// does, whether or not the fast path takes it.
func compare(t *testing.T, o etcdshapes.Object) {
	t.Helper()
	want, wantErr := etcdshapes.MarshalSlowForTest(o)
	got, err := etcdshapes.MarshalObject(o)
	if refusal := etcdshapes.FaithfulForTest(o); refusal != nil {
		// The old printer refuses such a string without naming it, or
		// prints another value.
		var bad *invalid.Error
		require.ErrorAs(t, err, &bad)
		require.Equal(t, refusal.Error(), err.Error())
		_, err = etcdshapes.Marshal([]etcdshapes.Object{o, o})
		require.Equal(t, refusal.Error(), err.Error())
		return
	}
	if wantErr != nil {
		require.Error(t, err)
		require.Equal(t, wantErr.Error(), err.Error())
		return
	}
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	if fast, err := etcdshapes.MarshalFastForTest(o); err == nil {
		require.Equal(t, string(want), string(fast))
	}
	all, err := etcdshapes.Marshal([]etcdshapes.Object{o, o})
	require.NoError(t, err)
	require.Equal(t, "---\n"+string(want)+"---\n"+string(want), string(all))
}

var fuzzSeeds = []string{
	"", " ", "yes", "no", "on", "~", "null", "0", "0x1f", "1e3", ".5", "*.x", "&a", "!t", ": ", "#",
	"- x", " lead", "trail ", "a\tb", "a\nb", "a\n", "\r", "é", "😀", "\xff", "\ufeffx", "12:30",
	"2024-01-02", "87600h0m0s", "1h30m0s", "0s", strings.Repeat("word ", 40), "<>&", "\x7f", "\u0085",
}

// FuzzMarshalObject builds typed and unstructured objects around the
// fuzzer's strings and numbers and compares Marshal with the old printer.
func FuzzMarshalObject(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+7)%len(fuzzSeeds)], int64(i)*1e15, float64(i)/3)
	}
	f.Add("k", "v", int64(math.MaxInt64), math.MaxFloat64)
	f.Add("k", "v", int64(math.MinInt64), math.SmallestNonzeroFloat64)
	f.Add("k", "v", int64(1)<<53+1, 1e21)
	f.Add("k", "v", int64(-1), -1e-7)
	f.Fuzz(func(t *testing.T, k, v string, n int64, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0
		}
		compare(t, configMap("tenant-"+k, v, map[string]string{k: v, v: k, "fixed": v}))

		dur := time.Duration(n)
		crt := &cmv1.Certificate{
			TypeMeta:   metav1.TypeMeta{APIVersion: "cert-manager.io/v1", Kind: "Certificate"},
			ObjectMeta: metav1.ObjectMeta{Name: k, Namespace: v},
			Spec: cmv1.CertificateSpec{
				CommonName:  v,
				Duration:    &metav1.Duration{Duration: dur},
				RenewBefore: &metav1.Duration{Duration: dur / 3},
				SecretName:  k,
				IssuerRef:   cmmeta.IssuerReference{Name: v},
			},
		}
		if n%2 == 0 {
			crt.Spec.DNSNames = []string{k, v}
		}
		compare(t, crt)

		job := &batchv1.Job{
			TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			ObjectMeta: metav1.ObjectMeta{Name: v},
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: k, Args: []string{k, v}, Command: []string{}}},
			}}},
		}
		compare(t, job)

		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1",
			"kind":       "Thing",
			"metadata":   map[string]any{"name": k},
			"spec": map[string]any{
				k: v, v: []any{n, x, k, map[string]any{}, []any{}},
				"int": n, "float": x, "big": float64(n) * 1e10, "small": x * 1e-12,
				"nested": map[string]any{"metadata": map[string]any{}, k: map[string]any{"metadata": map[string]any{}}},
			},
			"status": map[string]any{"a": map[string]any{}, k: map[string]any{}},
		}}
		compare(t, u)
	})
}

// TestMarshalExactIntegers: an int64 beyond 2^53, such as the quota of a
// size in the PiB, is printed as the typed object holds it (and as the
// defrag CronJob's --etcd-storage-quota-bytes spells it), on both paths:
// rounded through a float64 it would be another quota.
func TestMarshalExactIntegers(t *testing.T) {
	// Sizes from 2^53/0.95 bytes on that the charts' float64 arithmetic
	// holds exactly (quantity.ChartRule: 9Pi, 7Ei are not).
	for _, size := range []string{"10P", "9E", "9.2E", "2E", "1e16", "9.5e15", "9500000000000000", "5000P"} {
		objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root",
			Values: map[string]any{"size": size}})
		require.NoError(t, err, size)
		var quota int64
		for _, o := range objs {
			if ec, ok := o.(*v1alpha2.EtcdCluster); ok {
				quota = *ec.Spec.Options.QuotaBackendBytes
				compare(t, ec)
			}
		}
		require.Greater(t, quota, int64(1)<<53, size)
		out, err := etcdshapes.Marshal(objs)
		require.NoError(t, err)
		require.Contains(t, string(out), fmt.Sprintf("\n    quotaBackendBytes: %d\n", quota), size)
		require.Contains(t, string(out), fmt.Sprintf("--etcd-storage-quota-bytes=%d\n", quota), size)
	}
	for _, n := range []int64{1<<53 + 1, math.MaxInt64, math.MinInt64, 2190550858753009152} {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "x"}, "num": n}}
		compare(t, u)
		out, err := etcdshapes.MarshalObject(u)
		require.NoError(t, err)
		require.Contains(t, string(out), fmt.Sprintf("\nnum: %d\n", n))
	}
}

// TestNilObjects: Marshal and MarshalObject refuse nil and typed-nil
// objects with an error naming the position; Sort puts them last.
func TestNilObjects(t *testing.T) {
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	for name, bad := range map[string]etcdshapes.Object{
		"nil":              nil,
		"nil EtcdCluster":  (*v1alpha2.EtcdCluster)(nil),
		"nil Service":      (*corev1.Service)(nil),
		"nil Unstructured": (*unstructured.Unstructured)(nil),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := etcdshapes.MarshalObject(bad)
			var ne *invalid.Error
			require.ErrorAs(t, err, &ne)
			require.Equal(t, "object", ne.Field)
			list := append([]etcdshapes.Object{bad}, objs...)
			list = append(list, bad)
			_, err = etcdshapes.Marshal(list)
			require.ErrorAs(t, err, &ne)
			require.Equal(t, "objects[0]", ne.Field)
			etcdshapes.Sort(list)
			require.Equal(t, objs, list[:len(objs)])
			require.Nil(t, list[len(list)-1])
			_, err = etcdshapes.Marshal(list)
			require.ErrorAs(t, err, &ne)
			require.Equal(t, fmt.Sprintf("objects[%d]", len(objs)), ne.Field)
		})
	}
	etcdshapes.Sort(nil)
	out, err := etcdshapes.Marshal(nil)
	require.NoError(t, err)
	require.Empty(t, out)
}

// TestMarshalKeepsEveryStringOrRefusesIt: every string Marshal prints reads
// back from its YAML (decoded with sigs.k8s.io/yaml, as kubectl decodes
// it) byte for byte, and every other one is refused with its field named:
// Unicode code points between two letters (the whole BMP and a spread of
// the other planes), as a value and (where refused) as a map key, on the typed and the unstructured path, each invalid UTF-8 byte,
// and the classes by name (C0, DEL, C1, U+2028/U+2029, BOM).
func TestMarshalKeepsEveryStringOrRefusesIt(t *testing.T) {
	var samples []string
	// The whole Basic Multilingual Plane; beyond it, a spread of every
	// plane and each plane's last two (U+nFFFE, U+nFFFF).
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if utf8.ValidRune(r) && (r < 0x10000 || r%61 == 0 || r&0xFFFF >= 0xFFFE) {
			samples = append(samples, "a"+string(r)+"b")
		}
	}
	for b := 0x80; b <= 0xFF; b++ {
		samples = append(samples, "a"+string([]byte{byte(b)})+"b", string([]byte{byte(b)}))
	}
	samples = append(samples, "\x00", "\t", "\n", "\r\n", "\x1b]52;c;aGk=\a", "\x7f", "\u0085", "etcd\u0085x/", "\u0090",
		"\u2028", "\u2029", "\ufeff", "\ufeffetcd/", "\ufffe", "\uffff", "\U0010ffff", " lead", "trail ", "")
	refused, kept := 0, 0
	// check prints samples[lo:hi] as one ConfigMap's data; where that is
	// refused it halves the range, down to single strings, each then
	// printed as a value and as a key, typed and unstructured.
	var check func(lo, hi int)
	check = func(lo, hi int) {
		data := make(map[string]string, hi-lo)
		for i := lo; i < hi; i++ {
			data[fmt.Sprintf("k%07d", i)] = samples[i]
		}
		typed := configMap("tenant-x", "x", nil)
		typed.Data = data
		out, err := etcdshapes.MarshalObject(typed)
		if err == nil {
			var back corev1.ConfigMap
			require.NoError(t, yaml.Unmarshal(out, &back))
			require.Equal(t, data, back.Data)
			kept += hi - lo
			return
		}
		if hi-lo > 1 {
			check(lo, lo+(hi-lo)/2)
			check(lo+(hi-lo)/2, hi)
			return
		}
		s, key := samples[lo], fmt.Sprintf("k%07d", lo)
		for _, o := range []etcdshapes.Object{
			typed,
			func() etcdshapes.Object {
				c := configMap("tenant-x", "x", nil)
				c.Data = map[string]string{s: "v"}
				return c
			}(),
			&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "x", "annotations": map[string]any{key: s}}}},
		} {
			_, err := etcdshapes.MarshalObject(o)
			var bad *invalid.Error
			require.ErrorAs(t, err, &bad, "%q", s)
			require.True(t, bad.Field == "data."+key || bad.Field == "metadata.annotations."+key || strings.HasPrefix(bad.Field, "data["), "%q: %s", s, bad.Field)
			require.Contains(t, bad.Rule, "which YAML cannot carry byte for byte")
			refused++
		}
	}
	const batch = 8192
	for lo := 0; lo < len(samples); lo += batch {
		check(lo, min(lo+batch, len(samples)))
	}
	t.Logf("%d strings kept byte for byte, %d refused", kept, refused)
	require.Positive(t, refused)

	// The classes the issue names: what is refused, what is kept.
	for _, c := range []struct {
		s    string
		kept bool
	}{
		{"etcd\u0085x/", false}, {"a\x7fb", false}, {"a\u0090b", false}, {"a\u009fb", false}, {"\ufffe", false}, {"a\xffb", false}, {"a\xc3", false},
		{"a\x00b", true}, {"a\x1bb", true}, {"a\u2028b", true}, {"a\u2029b", true}, {"\ufeffa", true}, {"a\u00a0b", true},
	} {
		cm := configMap("tenant-x", "x", nil)
		cm.Data = map[string]string{"k": c.s}
		out, err := etcdshapes.MarshalObject(cm)
		if !c.kept {
			var bad *invalid.Error
			require.ErrorAs(t, err, &bad, "%q", c.s)
			require.Equal(t, "data.k", bad.Field)
			require.Equal(t, c.s, bad.Value)
			continue
		}
		require.NoError(t, err, "%q", c.s)
		var back corev1.ConfigMap
		require.NoError(t, yaml.Unmarshal(out, &back))
		require.Equal(t, c.s, back.Data["k"], "%q", c.s)
	}
}
