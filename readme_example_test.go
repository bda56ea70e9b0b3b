package etcdshapes_test

import (
	"bytes"
	"fmt"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
)

// The README's Go example: a whole stack printed as YAML, then one object
// of it built alone.
func Example_readme() {
	if err := readmeExample(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 12 objects in 12 YAML documents; 4 uninstall hooks left out
	// kubernetes-demo-etcd: etcd 3.6.11, 3 members of 4Gi, quota 4080218931 bytes
}

// readmeExample is the body of README.md's Go example, as written there
// (TestREADMEGoExampleIsAnExample holds the two equal).
func readmeExample() error {
	// A tenant cluster's whole stack, as helm template orders it (hooks last).
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{
		Namespace: "tenant-demo", Release: "kubernetes-demo", Replicas: 1, // 1 or 3; 0 means 3
	})
	if err != nil {
		return err // an *invalid.Error: the field, the value as given, the rule
	}
	// What helm install creates, for kubectl apply: the uninstall hooks left out.
	toApply := etcdshapes.WithoutUninstallHooks(objs)
	yamlBytes, err := etcdshapes.Marshal(toApply) // what `etcdshapes render` prints
	if err != nil {
		return err
	}
	fmt.Printf("%d objects in %d YAML documents; %d uninstall hooks left out\n",
		len(toApply), bytes.Count(yamlBytes, []byte("\n---\n"))+1, len(objs)-len(toApply))

	// One shape at a time: every name validated once, then a typed object.
	// A separate EtcdCluster, of the defaults (3 members), not the one above.
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		return err
	}
	cluster, err := etcd.Cluster(n, etcd.Options{}) // zero values mean the defaults
	if err != nil {
		return err
	}
	fmt.Printf("%s: etcd %s, %d members of %s, quota %d bytes\n", cluster.Name, cluster.Spec.Version,
		*cluster.Spec.Replicas, cluster.Spec.Storage.Size.String(), *cluster.Spec.Options.QuotaBackendBytes)
	return nil
}
