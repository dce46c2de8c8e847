package ojson

import "strconv"

// JSLen is len(v.JS("")), counted without printing: what a token estimate
// over the compact form needs (claude's ShownTokens). Duplicate keys
// count once (first position, last value) and numbers in JavaScript
// formatting, exactly as JS prints them; FuzzJSLen compares the two.
func (v Value) JSLen() int {
	switch v.Kind {
	case Invalid:
		return len("undefined")
	case Null:
		return len("null")
	case Bool:
		return len(strconv.FormatBool(v.Bool))
	case Number:
		if plainInteger(v.Str()) {
			return len(v.Str())
		}
		f, _ := v.Float()
		return len(JSNumber(f))
	case String:
		return JSStringLen(v.Str())
	case Array:
		if len(v.Array()) == 0 {
			return 2
		}
		n := 1 + len(v.Array()) // brackets and commas
		for _, e := range v.Array() {
			n += e.JSLen()
		}
		return n
	case Object:
		if len(v.Members()) == 0 {
			return 2
		}
		ms := v.Members()
		if hasDuplicateKeys(ms) {
			ms = dedupMembers(ms)
		}
		n := 1 + 2*len(ms) // braces, commas and colons (the order does not change the length)
		for _, m := range ms {
			n += JSStringLen(m.Key) + m.Value.JSLen()
		}
		return n
	}
	return 0
}
