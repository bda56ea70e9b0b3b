// Package quantity is the one gate every quantity passes before any
// arithmetic sees it: the sizes and resources of values files and --set
// flags, render check's --size, the quantities of etcd.Options, the live
// objects a plan reads, and the generated charts' checks, which chartgen
// writes from the same constants.
//
// resource.ParseQuantity and the arithmetic of resource.Quantity are
// exact, and so cost time and memory in the size of the number a text
// spells, not in its length: "1e-999999999" never parses, "1e999999999"
// parses at once into a quantity whose first comparison runs out of
// memory. Rule bounds a text in linear time before ParseQuantity reads it,
// Parse is ParseQuantity behind Rule, and Check holds a resource.Quantity
// built in Go to the same bounds. An admitted quantity is at most 64
// characters long, with an exponent between -99 and 99, and below 2^63
// (what Kubernetes reads into an int64; apimachinery stores a binary
// quantity beyond 2^63-1, 8Ei included, as 9223372036854775807) once read
// as a float64, as the charts compute with it (and the library, which
// reproduces them): at most 9223372036854775295.
package quantity
