package golden_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	rbacv1 "k8s.io/api/rbac/v1"
)

// TestPodSecurityRestricted: every pod template the library renders passes
// the Pod Security Standards "restricted" level (latest), as evaluated by
// k8s.io/pod-security-admission.
func TestPodSecurityRestricted(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			kinds := map[string]int{}
			for _, o := range objs {
				for _, pt := range crdcheck.PodTemplates(o) {
					kinds[o.GetObjectKind().GroupVersionKind().Kind]++
					require.NoError(t, crdcheck.Restricted(pt))
				}
			}
			if len(objs) > 0 {
				// At least the defrag CronJob and the cleanup Job.
				require.GreaterOrEqual(t, kinds["CronJob"], 1, "pod templates checked: %v", kinds)
				require.GreaterOrEqual(t, kinds["Job"], 1, "pod templates checked: %v", kinds)
			}
		})
	}
}

// TestRBACDeleteNamesResources: no rule grants delete (or a wildcard verb,
// resource or group) without naming the objects, and deletecollection is
// never granted (it cannot be restricted by name).
func TestRBACDeleteNamesResources(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			for _, o := range objs {
				role, ok := o.(*rbacv1.Role)
				if !ok {
					continue
				}
				for i, r := range role.Rules {
					where := fmt.Sprintf("Role %s rule %d", role.Name, i)
					require.NotContains(t, r.Verbs, "*", where)
					require.NotContains(t, r.Verbs, "deletecollection", where)
					require.NotContains(t, r.Resources, "*", where)
					require.NotContains(t, r.APIGroups, "*", where)
					if contains(r.Verbs, "delete") {
						require.NotEmpty(t, r.ResourceNames, "%s grants delete without resourceNames", where)
					}
				}
			}
		})
	}
}

// TestCleanupRoleMatchesJob derives what the cleanup Job deletes from its
// command and requires the Role bound to the Job's ServiceAccount to name
// exactly those objects: no more (least privilege), no less (the hook
// would fail with Forbidden and leave the objects behind).
func TestCleanupRoleMatchesJob(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			if len(objs) == 0 {
				return
			}
			var job *batchv1.Job
			roles := map[string]*rbacv1.Role{}
			var bindings []*rbacv1.RoleBinding
			for _, o := range objs {
				switch v := o.(type) {
				case *batchv1.Job:
					if v.Annotations["helm.sh/hook"] == "post-delete" {
						require.Nil(t, job, "one cleanup Job")
						job = v
					}
				case *rbacv1.Role:
					roles[v.Name] = v
				case *rbacv1.RoleBinding:
					bindings = append(bindings, v)
				}
			}
			require.NotNil(t, job, "the stack has a post-delete cleanup Job")
			pod := job.Spec.Template.Spec
			require.Len(t, pod.Containers, 1)
			deletes, err := kubectlDeletes(pod.Containers[0].Command, pod.Containers[0].Args)
			require.NoError(t, err)
			require.NotEmpty(t, deletes, "the Job deletes nothing")

			// The Role bound to the Job's ServiceAccount.
			var role *rbacv1.Role
			for _, b := range bindings {
				for _, sub := range b.Subjects {
					if sub.Kind == rbacv1.ServiceAccountKind && sub.Name == pod.ServiceAccountName && sub.Namespace == job.Namespace {
						require.Equal(t, "Role", b.RoleRef.Kind)
						require.Nil(t, role, "one Role for the cleanup ServiceAccount")
						role = roles[b.RoleRef.Name]
						require.NotNil(t, role, "RoleBinding %s refers to a Role the stack does not render", b.Name)
						require.Equal(t, b.Namespace, job.Namespace)
					}
				}
			}
			require.NotNil(t, role, "no Role is bound to ServiceAccount %q", pod.ServiceAccountName)
			require.Equal(t, job.Namespace, role.Namespace)

			want := map[string][]string{} // resource -> names
			for _, d := range deletes {
				require.Equal(t, job.Namespace, d.namespace, "kubectl deletes in another namespace: %+v", d)
				want[d.resource] = append(want[d.resource], d.names...)
			}
			granted := map[string]map[string][]string{} // verb -> resource -> names
			for _, r := range role.Rules {
				require.Equal(t, []string{""}, r.APIGroups)
				for _, verb := range r.Verbs {
					require.Contains(t, []string{"get", "delete"}, verb, "the cleanup Role grants only get and delete")
					if granted[verb] == nil {
						granted[verb] = map[string][]string{}
					}
					for _, res := range r.Resources {
						granted[verb][res] = append(granted[verb][res], r.ResourceNames...)
					}
				}
			}
			for _, verb := range []string{"delete", "get"} {
				got := map[string][]string{}
				for res, names := range granted[verb] {
					got[res] = sorted(names)
				}
				exp := map[string][]string{}
				for res, names := range want {
					exp[res] = sorted(names)
				}
				require.Equal(t, exp, got, "the Role's %s rules must name exactly what the Job deletes", verb)
			}
		})
	}
}

type deletion struct {
	namespace, resource string
	names               []string
}

// kubectlDeletes reads the kubectl delete invocations of a container: its
// command and args directly, or the script of a "sh -c" command.
func kubectlDeletes(command, args []string) ([]deletion, error) {
	argv := append(append([]string{}, command...), args...)
	if len(argv) >= 3 && (argv[0] == "/bin/sh" || argv[0] == "sh" || argv[0] == "/bin/bash" || argv[0] == "bash") && argv[1] == "-c" {
		cmds, err := shellCommands(argv[2])
		if err != nil {
			return nil, err
		}
		var out []deletion
		for _, words := range cmds {
			if len(words) == 0 || words[0] != "kubectl" {
				continue
			}
			d, err := parseKubectlDelete(words)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", words, err)
			}
			out = append(out, d)
		}
		return out, nil
	}
	if len(argv) == 0 || argv[0] != "kubectl" {
		return nil, fmt.Errorf("not a kubectl or sh -c command: %q", argv)
	}
	d, err := parseKubectlDelete(argv)
	if err != nil {
		return nil, err
	}
	return []deletion{d}, nil
}

// shellCommands splits a script into simple commands, each a list of
// words: comments dropped, backslash-newline joined, commands separated by
// newlines, ";", "&&", "||" and "|" outside quotes, single and double
// quotes removed, redirections dropped. Anything that would expand ($, `,
// globs) is refused: the names a Role grants must be literal.
func shellCommands(script string) ([][]string, error) {
	var cmds [][]string
	var words []string
	var w strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			word := w.String()
			if !strings.HasPrefix(word, ">") && !strings.HasPrefix(word, "<") && !(len(word) > 1 && word[0] >= '0' && word[0] <= '9' && word[1] == '>') {
				words = append(words, word)
			}
			w.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	rs := []rune(script)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs) && rs[i+1] == '\n':
			i++
			endWord()
		case r == '\'' || r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != r {
				if r == '"' && (rs[j] == '$' || rs[j] == '`') {
					return nil, fmt.Errorf("expansion in %q", string(rs[i:]))
				}
				j++
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unterminated quote in %q", string(rs[i:]))
			}
			w.WriteString(string(rs[i+1 : j]))
			inWord = true
			i = j
		case r == '#' && !inWord:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			endCmd()
		case r == '\n' || r == ';':
			endCmd()
		case r == '&' || r == '|':
			if i > 0 && rs[i-1] == '>' { // >&2
				w.WriteRune(r)
				continue
			}
			if i+1 < len(rs) && rs[i+1] == r {
				i++
			}
			endCmd()
		case r == ' ' || r == '\t':
			endWord()
		case r == '$' || r == '`' || r == '*' || r == '?' || r == '[':
			return nil, fmt.Errorf("expansion %q in %q: the names deleted are not literal", r, string(rs[max(0, i-20):]))
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	endCmd()
	return cmds, nil
}

var kubectlResources = map[string]string{
	"secret": "secrets", "secrets": "secrets",
	"pvc": "persistentvolumeclaims", "persistentvolumeclaim": "persistentvolumeclaims", "persistentvolumeclaims": "persistentvolumeclaims",
}

// parseKubectlDelete reads "kubectl [flags] delete TYPE NAME... [flags]".
func parseKubectlDelete(words []string) (deletion, error) {
	var d deletion
	var pos []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-n" || w == "--namespace":
			if i+1 == len(words) {
				return d, fmt.Errorf("%s without a value", w)
			}
			i++
			d.namespace = words[i]
		case strings.HasPrefix(w, "--namespace="):
			d.namespace = strings.TrimPrefix(w, "--namespace=")
		case w == "-l" || strings.HasPrefix(w, "--selector") || w == "--all" || w == "-A" || w == "--all-namespaces" ||
			w == "-f" || strings.HasPrefix(w, "--filename"):
			return d, fmt.Errorf("%s: a deletion that is not by name cannot be restricted by resourceNames", w)
		case w == "--ignore-not-found" || strings.HasPrefix(w, "--ignore-not-found=") || strings.HasPrefix(w, "--wait"):
		case strings.HasPrefix(w, "-"):
			return d, fmt.Errorf("flag %s is not understood by this test", w)
		default:
			pos = append(pos, w)
		}
	}
	if len(pos) < 3 || pos[0] != "delete" {
		return d, fmt.Errorf("not kubectl delete TYPE NAME...: %q", words)
	}
	res, ok := kubectlResources[pos[1]]
	if !ok {
		return d, fmt.Errorf("resource type %q is not understood by this test", pos[1])
	}
	d.resource = res
	d.names = pos[2:]
	if d.namespace == "" {
		return d, fmt.Errorf("no --namespace: kubectl would use the ServiceAccount's namespace only by accident")
	}
	return d, nil
}

func TestKubectlDeletesParser(t *testing.T) {
	d, err := kubectlDeletes([]string{"kubectl", "--namespace=ns", "delete", "secret", "--ignore-not-found", "--wait=false", "a", "b"}, nil)
	require.NoError(t, err)
	require.Equal(t, []deletion{{namespace: "ns", resource: "secrets", names: []string{"a", "b"}}}, d)

	script := "# comment kubectl delete pvc x\necho \"kubectl delete secret y\"\nkubectl delete pvc -n ns p1 p2 --ignore-not-found \\\n  || echo failed >&2\nkubectl delete secret -n ns s1\n"
	d, err = kubectlDeletes([]string{"/bin/sh", "-c", script}, nil)
	require.NoError(t, err)
	require.Equal(t, []deletion{
		{namespace: "ns", resource: "persistentvolumeclaims", names: []string{"p1", "p2"}},
		{namespace: "ns", resource: "secrets", names: []string{"s1"}},
	}, d)

	for _, bad := range [][]string{
		{"kubectl", "delete", "secret", "-n", "ns", "-l", "app=x"},
		{"kubectl", "delete", "secret", "--all", "-n", "ns"},
		{"kubectl", "delete", "secret", "a"},
		{"kubectl", "delete", "configmap", "a", "-n", "ns"},
		{"/bin/sh", "-c", "kubectl delete secret -n ns $NAME"},
		{"rm", "-rf", "/"},
	} {
		_, err := kubectlDeletes(bad, nil)
		require.Error(t, err, "%q", bad)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// Stacks the scenarios do not cover: the etcd chart at several replica
// counts (its Role names one PVC per member).
func TestCleanupRoleMatchesJobReplicas(t *testing.T) {
	for _, replicas := range []int32{1, 2, 3, 5, 7} {
		objs, err := etcdshapes.Render(etcdshapes.Request{
			Caller: naming.CallerEtcd, Namespace: "tenant-x",
			Values: map[string]any{"replicas": float64(replicas)},
		})
		require.NoError(t, err)
		var job *batchv1.Job
		roles := map[string]*rbacv1.Role{}
		for _, o := range objs {
			switch v := o.(type) {
			case *batchv1.Job:
				if v.Annotations["helm.sh/hook"] == "post-delete" {
					job = v
				}
			case *rbacv1.Role:
				roles[v.Name] = v
			}
		}
		require.NotNil(t, job)
		role := roles[job.Spec.Template.Spec.ServiceAccountName]
		require.NotNil(t, job)
		require.NotNil(t, role)
		c := job.Spec.Template.Spec.Containers[0]
		deletes, err := kubectlDeletes(c.Command, c.Args)
		require.NoError(t, err)
		var pvcs []string
		for _, d := range deletes {
			if d.resource == "persistentvolumeclaims" {
				pvcs = append(pvcs, d.names...)
			}
		}
		require.Len(t, pvcs, int(replicas))
		var granted []string
		for _, r := range role.Rules {
			if contains(r.Resources, "persistentvolumeclaims") {
				granted = append(granted, r.ResourceNames...)
			}
		}
		require.Equal(t, sorted(pvcs), sorted(granted))
	}
}
