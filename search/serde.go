package search

import (
	"math"
	"strconv"
	"strings"
)

// Rust clients (Grok Build, Copilot CLI) print JSON with serde_json. These
// helpers reproduce its number and string forms; they were grok's and
// moved here when Copilot CLI needed them too.

// SerdeNumber prints a JSON number literal as serde_json (without
// arbitrary_precision) re-serialises it: an integer literal that fits u64
// (or i64 when negative) as is; "-0" and every other literal as the f64 it
// parses to, in ryu's format (SerdeF64).
func SerdeNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		if strings.HasPrefix(lit, "-") {
			if n, err := strconv.ParseInt(lit, 10, 64); err == nil && n != 0 {
				return strconv.FormatInt(n, 10)
			}
		} else if n, err := strconv.ParseUint(lit, 10, 64); err == nil {
			return strconv.FormatUint(n, 10)
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return lit // serde_json rejects it; keep the text
	}
	return SerdeF64(f)
}

// SerdeF64 formats a finite float64 as Rust's ryu crate (used by
// serde_json) does: the shortest digits that round-trip, written
//
//	D…D000.0   when the last digit is at or left of the point and the number has at most 16 integer digits (1.0, 120.0)
//	D.DDD      when the point falls inside the digits (2.5304000377655029)
//	0.000DDD   when the number is below 1 with at most 5 leading zeros
//	DeX, D.DDeX otherwise (1e-7, 1.5e20)
func SerdeF64(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := len(digits)
	kk := x + 1 // position of the decimal point after the first kk digits
	k := kk - n // exponent of the last digit
	switch {
	case 0 <= k && kk <= 16:
		return sign + digits + strings.Repeat("0", k) + ".0"
	case 0 < kk && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case -5 < kk && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		return sign + digits + "e" + strconv.Itoa(kk-1)
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
}

const serdeHex = "0123456789abcdef"

// AppendSerdeString writes s as a JSON string the way serde_json escapes
// it: only '"', '\\' and control characters (\n \r \t \b \f short, the
// rest \u00XX); everything else, "<", "&" and U+2028 included, raw.
func AppendSerdeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c < 0x20:
			esc = `\u00` + string(serdeHex[c>>4]) + string(serdeHex[c&0xf])
		default:
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
