package roundtrip

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/dupkeytest"
)

// TestKeysGivenTwiceAsHelm: every values form of the class of keys given
// twice (internal/testsupport/dupkeytest) is read as Helm reads it. Through Helm v3's
// and v4's values reader the chart renders the form as it renders the
// form with the later keys only (the table's Later), and the library
// renders what the chart renders; the keys Helm keeps either of by chance
// (1 and "1") Helm renders and the library refuses.
func TestKeysGivenTwiceAsHelm(t *testing.T) {
	forEachHelm(t, func(t *testing.T, h helm) {
		for _, f := range dupkeytest.ValuesForms() {
			t.Run(f.Name, func(t *testing.T) {
				in := renderInput{caller: "etcd", release: "etcd", namespace: "tenant-root", values: []byte(f.Doc)}
				got, err := helmRender(t, h, in)
				if err != nil {
					t.Fatalf("helm refuses: %v", err)
				}
				if f.Field != "" {
					if _, err := goRender(in); err == nil {
						t.Fatal("the library renders what Helm leaves to chance")
					}
					return
				}
				later := in
				later.values = []byte(f.Later)
				want, err := helmRender(t, h, later)
				if err != nil {
					t.Fatalf("helm refuses the later keys: %v", err)
				}
				if got != want {
					t.Fatalf("helm does not read the form as its later keys:\n%s\nwant\n%s", got, want)
				}
				if compareRenders(t, h, in) == 0 {
					t.Fatal("nothing compared")
				}
			})
		}
	})
}
