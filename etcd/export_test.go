package etcd

// SnapshotListing is the kubectl output format the snapshot script lists
// its ring with, for the fake kubectl of the script's tests.
const SnapshotListing = snapshotListing
