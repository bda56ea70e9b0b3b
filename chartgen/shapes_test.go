package chartgen

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation"
)

// rowOf is the row of the table of shapes (etcdshapes.Shapes) of each
// object the generator writes a template for (shapeID).
var rowOf = map[string]string{
	"etcdCluster":           "etcd-cluster",
	"defragCronJob":         "defrag-cron-job",
	"verticalPodAutoscaler": "vertical-pod-autoscaler",
	"workloadMonitor":       "workload-monitor",
	"dataStore":             "data-store",
	"selfSigningIssuer":     "issuers",
	"peerIssuer":            "issuers",
	"issuer":                "issuers",
	"peerCACertificate":     "certificates",
	"caCertificate":         "certificates",
	"serverCertificate":     "certificates",
	"peerCertificate":       "certificates",
	"clientCertificate":     "certificates",
	"podScrape":             "pod-scrape",
	"podMonitor":            "pod-monitor",
	"grafanaDashboard":      "grafana-dashboard",
	"networkPolicy":         "network-policy",
	"dashboardRole":         "dashboard-role",
	"dashboardRoleBinding":  "dashboard-role-binding",
	"legacyHeadlessService": "legacy-headless-service",
	"prometheusRule":        "prometheus-rule",
	"caSecret":              "keep-secrets",
	"clientSecret":          "keep-secrets",
	"cleanupServiceAccount": "cleanup-service-account",
	"cleanupRole":           "cleanup-role",
	"cleanupRoleBinding":    "cleanup-role-binding",
	"cleanupJob":            "cleanup-job",
}

// TestTemplatesCoverTheShapesTable: for each caller, the per-object
// templates the library chart holds (the shared stack and the caller's own,
// as libraryStacks writes them) are exactly the rows of etcdshapes.Shapes
// that the caller renders, each object of its row's kind, gated on the
// row's API (which the caller's config serves when the row renders for it
// regardless, AlwaysFor).
// A new row without a template, or a template without a row, fails.
func TestTemplatesCoverTheShapesTable(t *testing.T) {
	rows := map[string]etcdshapes.Shape{}
	for _, s := range etcdshapes.Shapes() {
		rows[s.ID] = s
	}
	texts := map[naming.Caller][]objText{}
	for _, caller := range naming.Callers() {
		st, err := renderStack(caller, sentinels[0])
		require.NoError(t, err)
		sx, err := writeStack(st, shapeReasons)
		require.NoError(t, err)
		texts[caller] = sx.objs
	}
	shared, own, err := mergeStacks(texts[naming.CallerEtcd], texts[naming.CallerCluster])
	require.NoError(t, err)
	kept := map[string]naming.Caller{}
	for _, caller := range naming.Callers() {
		for _, o := range texts[caller] {
			if strings.HasPrefix(o.body, "{{ include \"etcdshapes.file\"") {
				kept[o.id] = caller
			}
		}
	}
	for _, caller := range naming.Callers() {
		t.Run(caller.String(), func(t *testing.T) {
			covered := map[string]bool{}
			for _, o := range slices.Concat(shared, own[caller]) {
				id, ok := rowOf[o.id]
				require.True(t, ok, "the template of %s has no row in rowOf", o.id)
				row, ok := rows[id]
				require.True(t, ok, "the template of %s is for row %s, which the table does not have", o.id, id)
				require.True(t, slices.Contains(row.Callers, caller), "the %s stack has a template of %s, but row %s does not render for it", caller, o.id, id)
				if kept[o.id] == "" {
					require.Contains(t, o.body, "\nkind: "+row.Kind.Kind+"\n", "the template of %s is not a %s", o.id, row.Kind.Kind)
					require.Contains(t, o.body, "apiVersion: "+row.Kind.GroupVersion().String()+"\n", o.id)
				}
				switch {
				case row.API == "":
					require.Empty(t, o.gates, "the gates of %s (row %s)", o.id, id)
				case slices.Contains(row.AlwaysFor, caller):
					// Ungated, or gated on an API the caller's config
					// always serves (an object both callers share).
					require.Contains(t, alwaysAPIs(caller), row.API, "row %s renders for %s regardless", id, caller)
					if len(o.gates) > 0 {
						require.Equal(t, []string{apiGate(row.API)}, o.gates, "the gates of %s (row %s)", o.id, id)
					}
				default:
					require.Equal(t, []string{apiGate(row.API)}, o.gates, "the gates of %s (row %s)", o.id, id)
				}
				covered[id] = true
			}
			var wantRows, gotRows []string
			for _, s := range etcdshapes.Shapes() {
				if slices.Contains(s.Callers, caller) {
					wantRows = append(wantRows, s.ID)
				}
			}
			for id := range covered {
				gotRows = append(gotRows, id)
			}
			sort.Strings(wantRows)
			sort.Strings(gotRows)
			require.Equal(t, wantRows, gotRows, "the rows of the table the %s stack renders, and those its templates cover", caller)
		})
	}
}

// TestSchemaRefusesOnlyWhatTheLibraryRefuses: the schemas' patterns and
// lengths refuse no text the library accepts: a quantity the pattern or
// the length refuses is one quantity.Rule refuses, a name one apimachinery
// refuses, on every text of a small alphabet up to four characters, the
// library's own examples and random longer texts.
func TestSchemaRefusesOnlyWhatTheLibraryRefuses(t *testing.T) {
	q, name := regexp.MustCompile(schemaQuantityPattern), regexp.MustCompile(schemaSubdomainPattern)
	var texts []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		texts = append(texts, prefix)
		if n == 0 {
			return
		}
		for _, c := range []string{"0", "1", "9", ".", "+", "-", "e", "E", "i", "K", "M", "P", "m", "n", "a", "z", " "} {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(80))
		for i := range b {
			b[i] = "0123456789.+-eEiKMGTPnumk"[r.IntN(25)]
		}
		texts = append(texts, string(b))
	}
	texts = append(texts, "1e99", "1e100", "1e-99", "5e-099", "1e0099", "8Ei", "9223372036854775295", strings.Repeat("1", 64), strings.Repeat("1", 65), "4Gi", "1.5", ".5", "5.", "+1", "-1Gi")
	refused := 0
	for _, s := range texts {
		if !q.MatchString(s) || len(s) > quantity.MaxLength {
			refused++
			require.NotEmpty(t, quantity.Rule(s), "the schema refuses the quantity %q the library accepts", s)
		}
	}
	require.Greater(t, refused, len(texts)/2)
	for _, s := range append(texts, "a.b", "a-b.c", "-a", "a-", "a..b", "A", strings.Repeat("a", 63)+"."+strings.Repeat("b", 189), strings.Repeat("a", 63)+"."+strings.Repeat("b", 190)) {
		if !name.MatchString(s) || len(s) > validation.DNS1123SubdomainMaxLength {
			require.True(t, s != "" && len(validation.IsDNS1123Subdomain(s)) > 0, "the schema refuses the name %q the library accepts", s)
		} else if s != "" {
			require.Empty(t, validation.IsDNS1123Subdomain(s), s)
		}
	}
}
