// Package pki builds the cert-manager PKI of an etcd cluster: a self-signing
// Issuer, two CAs (peer and client side, RSA 4096, ten years, keys never
// rotated so the trust roots stay put), a CA Issuer for each, and the server,
// peer and client leaf certificates (RSA 4096, keys rotated on every
// renewal). The EtcdCluster references the leaves' Secrets; the Kamaji
// DataStore reads the client CA and the client certificate.
package pki
