package etcdshapes_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/dupkeytest"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// dupKeyBadInputs are the catalogue's rows of the class of keys given
// twice (internal/testsupport/dupkeytest): every refused live form through
// plan.ReadObjects, and the values forms Helm leaves to chance.
func dupKeyBadInputs() []badInput {
	var out []badInput
	for _, f := range dupkeytest.LiveForms() {
		if f.Field != "" {
			out = append(out, badInput{"live key twice: " + f.Name, liveDoc(f.Doc), f.Field, f.Key, f.Rule})
		}
	}
	for _, f := range dupkeytest.ValuesForms() {
		if f.Field != "" {
			out = append(out, badInput{"values key twice: " + f.Name, etcdValues(f.Doc), f.Field, f.Key, f.Rule})
		}
	}
	return out
}

// etcdRender renders the etcd chart in tenant-root from a values document,
// as YAML.
func etcdRender(t *testing.T, doc string) string {
	t.Helper()
	v, err := values.Merge([]byte(doc))
	require.NoError(t, err, "%q", doc)
	objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
	require.NoError(t, err, "%q", doc)
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	return string(out)
}

// TestKeysGivenTwiceGoAPI: the Go API's readers over every form of the
// class. plan.ReadObjects refuses every live form (a key given twice at
// any depth, in a List item, in JSON, in flow style, through a merge key,
// two keys that are one JSON key, two documents in one) as the catalogue
// row says, and reads the forms beside it (keys of different case, a merge
// key that only adds); values.Merge reads every values form as Helm does,
// the later key winning, so that the render is the render of the form with
// the later keys only, and refuses the keys Helm leaves to chance.
func TestKeysGivenTwiceGoAPI(t *testing.T) {
	for _, f := range dupkeytest.LiveForms() {
		t.Run("live "+f.Name, func(t *testing.T) {
			objs, err := plan.ReadObjects([]byte(f.Doc))
			if f.Field == "" {
				require.NoError(t, err)
				require.NotEmpty(t, objs)
				return
			}
			require.Nil(t, objs)
			_, err = badInput{f.Name, func() error { return err }, f.Field, f.Key, f.Rule}.refused(t)
			_, again := plan.ReadObjects([]byte(f.Doc))
			require.Equal(t, err.Error(), again.Error(), "the same every run")
		})
	}
	for _, f := range dupkeytest.ValuesForms() {
		t.Run("values "+f.Name, func(t *testing.T) {
			if f.Field != "" {
				badInput{f.Name, etcdValues(f.Doc), f.Field, f.Key, f.Rule}.refused(t)
				return
			}
			require.Equal(t, etcdRender(t, f.Later), etcdRender(t, f.Doc))
		})
	}
}
