package invalid

// AddExcept records err as Add does, less the refusals whose Field is in
// reported: the fields the caller has already refused, by a check of its
// own that a builder then ran again (a value the values reader refused,
// names that could not be made), so that each is reported once.
//
// Every error in err that holds no refusal is recorded whole, also one
// joined with refusals (errors.Join of an *Error and an I/O error): only
// refusals are ever left out. A nil *Error, or a List of none, is nothing.
// It reports whether it recorded anything.
func (c *Collector) AddExcept(err error, reported map[string]bool) bool {
	return c.AddEach(err, func(e *Error) *Error {
		if reported[e.Field] {
			return nil
		}
		return e
	})
}

// AddEach records, for each refusal e in err (in the order All gives
// them), what keep returns: e, e in the caller's terms (a copy naming the
// flag that set its field, say), or nil for a refusal the caller has
// already reported. Every error in err that holds no refusal is recorded
// whole, as AddExcept says. It reports whether it recorded anything.
func (c *Collector) AddEach(err error, keep func(*Error) *Error) bool {
	refusals, others := split(err)
	n := c.Len()
	for _, e := range refusals {
		if e = keep(e); e != nil {
			c.errs = append(c.errs, e)
		}
	}
	c.other = append(c.other, others...)
	return c.Len() > n
}

// split parts err into its refusals, in the order All gives them, and the
// errors in it that hold no refusal: each of those is kept whole (with its
// wrappers' messages), while an error that holds refusals is unwrapped
// (errors.Join's branches, fmt.Errorf's %w) down to them, as Add records
// the refusals of a wrapped error and not the wrapper.
func split(err error) (refusals []*Error, others []error) {
	var walk func(err error, depth int)
	walk = func(err error, depth int) {
		switch t := err.(type) {
		case nil:
			return
		case *Error:
			if t != nil {
				refusals = append(refusals, t)
			}
			return
		case List:
			refusals = append(refusals, All(t)...)
			return
		}
		if depth > maxUnwrapDepth || len(All(err)) == 0 {
			others = append(others, err)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e, depth+1)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap(), depth+1)
		}
	}
	walk(err, 0)
	return refusals, others
}
