package jsonnum

import "testing"

func TestScan(t *testing.T) {
	for _, c := range []struct {
		in                string
		n, intDigits      int
		integer, isNumber bool
	}{
		{"0", 1, 1, true, true},
		{"-0", 2, 1, true, true},
		{"123", 3, 3, true, true},
		{"-123,", 4, 3, true, false},
		{"01", 1, 1, true, false},
		{"1.5", 3, 1, false, true},
		{"1.5e10", 6, 1, false, true},
		{"12E-3]", 5, 2, false, false},
		{"1e+0", 4, 1, false, true},
		{"", 0, 0, false, false},
		{"-", 0, 0, false, false},
		{"+1", 0, 0, false, false},
		{".5", 0, 0, false, false},
		{"1.", 0, 0, false, false},
		{"1.e5", 0, 0, false, false},
		{"1e", 0, 0, false, false},
		{"1e+", 0, 0, false, false},
		{"1x", 1, 1, true, false},
	} {
		n, intDigits, integer := Scan(c.in)
		if n != c.n || intDigits != c.intDigits || integer != c.integer {
			t.Errorf("Scan(%q) = %d, %d, %v; want %d, %d, %v", c.in, n, intDigits, integer, c.n, c.intDigits, c.integer)
		}
		if n2, _, _ := Scan([]byte(c.in)); n2 != n {
			t.Errorf("Scan([]byte(%q)) = %d, Scan(string) = %d", c.in, n2, n)
		}
		if got := Is(c.in); got != c.isNumber {
			t.Errorf("Is(%q) = %v, want %v", c.in, got, c.isNumber)
		}
	}
}
