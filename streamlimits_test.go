package etcdshapes_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
)

// streamsBeyondTheLimits are live files of many documents, each document
// within the limit of one, that together pass the stream's limits: too
// many documents (empty ones counted), or too many nodes in all, also
// through aliases (each document's expansion within the limit of one).
func streamsBeyondTheLimits() map[string]string {
	// A document whose aliases expand to some 1,000,000 nodes, itself
	// small: three of them are beyond the stream's nodes.
	var bomb strings.Builder
	bomb.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: b}\nbase: &b [" + strings.TrimSuffix(strings.Repeat("1,", 1000), ",") + "]\nx:\n")
	for range 1000 {
		bomb.WriteString("- *b\n")
	}
	third := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: b}\nx:\n" + strings.Repeat("- a\n", plan.MaxNodes/3+10)
	return map[string]string{
		"one document more than the limit, empty":   string(bigyaml.EmptyDocuments(plan.MaxDocuments + 1)),
		"one document more than the limit, objects": string(bigyaml.TinyDocuments(plan.MaxDocuments+1, 0)),
		"64 MiB of ---":                      string(bigyaml.EmptyDocuments(plan.MaxBytes / 4)),
		"64 MiB of three-line objects":       string(bigyaml.TinyDocuments(0, plan.MaxBytes)),
		"nodes of three documents":           third + "---\n" + third + "---\n" + third,
		"aliases of three documents":         bomb.String() + "---\n" + bomb.String() + "---\n" + bomb.String(),
		"documents after a --- comment line": strings.Repeat("--- # x\n", plan.MaxDocuments+1),
		"CRLF documents":                     strings.Repeat("---\r\n", plan.MaxDocuments+1),
	}
}

// TestLiveStreamBounded: a live file is bounded as a whole before any of
// its documents is parsed (plan.MaxDocuments documents, empty ones
// counted; plan.MaxNodes nodes in all, aliases expanded), so a file
// within the limit of one document but of many (896,264 documents of
// three lines: 34.5 s of CPU and 1.96 GB before; 16 million empty ones:
// 24 s) is refused at once and in bounded memory, naming the file
// ("live") and the limit. At the document limit, the cheap documents
// read at once. The heavy ones at the limits are TestLiveStreamAtTheLimits
// (slow tier).
func TestLiveStreamBounded(t *testing.T) {
	for name, doc := range streamsBeyondTheLimits() {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			err := bounded(t, name, 512<<20, func() error { _, err := plan.ReadObjects([]byte(doc)); return err })
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "%T %v", err, err)
			require.Equal(t, "live", ne.Field)
			require.Regexp(t, `more than \d+ YAML (documents|nodes)|expands to more than`, ne.Rule)
			// Refused before any document is parsed: in a few seconds
			// on a loaded machine (0.3 s for 64 MiB on an idle one).
			require.Less(t, time.Since(start), 30*time.Second)
		})
	}
	for name, doc := range map[string][]byte{
		"empty documents at the limit": bigyaml.EmptyDocuments(plan.MaxDocuments),
		"objects at the limit":         bigyaml.TinyDocuments(plan.MaxDocuments, 0),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			var objs []etcdshapes.Object
			err := bounded(t, name, 1<<30, func() error {
				var err error
				objs, err = plan.ReadObjects(doc)
				if err == nil {
					_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, objs)
				}
				return err
			})
			require.NoError(t, err)
			require.Less(t, time.Since(start), 60*time.Second)
		})
	}
}

// TestLiveStreamAtTheLimits: the costliest live files the limits admit
// (one List of the stacks' objects and Pods at the node limit; the
// stacks' objects one a document at the document limit; 20,000 documents
// of one-character list items at the node limit) plan within a generous
// bound, guarding the figures docs/limits.md states (about 5 s of CPU
// each on 2 cores).
func TestLiveStreamAtTheLimits(t *testing.T) {
	testtier.SkipUnlessSlow(t, "planning against live files at the stream's limits")
	list, err := bigyaml.LiveList("tenant-root", inputlimit.MaxLiveNodes-2000)
	require.NoError(t, err)
	docs, err := bigyaml.LiveDocuments("tenant-root", inputlimit.MaxLiveDocuments, inputlimit.MaxLiveNodes)
	require.NoError(t, err)
	for name, doc := range map[string][]byte{
		"list":           list,
		"documents":      docs,
		"item documents": bigyaml.ItemDocuments(inputlimit.MaxLiveDocuments, inputlimit.MaxLiveNodes-inputlimit.MaxLiveDocuments),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			objs, err := plan.ReadObjects(doc)
			require.NoError(t, err)
			_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, objs)
			require.NoError(t, err)
			require.Less(t, time.Since(start), 2*time.Minute, "%d objects", len(objs))
		})
	}
}
