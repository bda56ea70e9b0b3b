//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

// asChild: the platform has no signals or file size limits to test with.
func asChild() {}
